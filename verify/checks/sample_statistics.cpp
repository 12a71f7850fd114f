#include "verify/checks/sample_statistics.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"

namespace dpb::verify {

namespace {
void require_size(const std::vector<double>& x, std::size_t at_least, const char* what) {
  if (x.size() < at_least)
    throw InvalidArgument(fmt::format("{} needs at least {} values, got {}", what, at_least, x.size()));
}
}  // namespace

double sample_mean(const std::vector<double>& x) {
  require_size(x, 1, "a mean");
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

double sample_sd(const std::vector<double>& x) {
  require_size(x, 2, "a standard deviation");
  const double m = sample_mean(x);
  double squares = 0;
  for (double v : x) squares += (v - m) * (v - m);
  return std::sqrt(squares / static_cast<double>(x.size() - 1));
}

double sample_quantile(std::vector<double> x, double p) {
  require_size(x, 1, "a quantile");
  if (!(p >= 0 && p <= 1))
    throw InvalidArgument(fmt::format("a quantile level must lie in [0, 1], got {}", p));
  std::sort(x.begin(), x.end());
  const double position = p * static_cast<double>(x.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, x.size() - 1);
  const double weight = position - static_cast<double>(below);
  return x[below] + weight * (x[above] - x[below]);
}

double least_squares_slope(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw InvalidArgument("a slope needs as many x values as y values");
  require_size(x, 2, "a slope");
  const double mx = sample_mean(x), my = sample_mean(y);
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  if (sxx == 0) throw InvalidArgument("a slope needs at least two distinct x values");
  return sxy / sxx;
}

}  // namespace dpb::verify
