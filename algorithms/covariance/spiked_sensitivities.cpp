#include "algorithms/covariance/spiked_sensitivities.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::alg {
namespace {

void require_constant(double c, const char* name) {
  if (!(std::isfinite(c) && c > 0))
    throw InvalidArgument(
        fmt::format("cai2024 sensitivity constant {} must be a finite number > 0, got {}", name, c));
}

// lambda (r + log n) + sigma^2 (p + log n): the bound on ||X_i||^2 + ||X_i'||^2 of cai2024 Lemma 8.
double squared_norm_scale(const SpikedSizes& s) {
  const double log_n = std::log(static_cast<double>(s.n));
  return s.lambda * (static_cast<double>(s.r) + log_n) + s.sigma2 * (static_cast<double>(s.p) + log_n);
}

}  // namespace

void validate(const SpikedSizes& s, const char* owner) {
  if (s.n < 1 || s.p < 1 || s.r < 1)
    throw InvalidArgument(
        fmt::format("{}: need n >= 1, p >= 1 and r >= 1, got n={}, p={}, r={}", owner, s.n, s.p, s.r));
  if (!(std::isfinite(s.lambda) && s.lambda > 0))
    throw InvalidArgument(
        fmt::format("{}: the signal strength lambda must be a finite number > 0, got {}", owner, s.lambda));
  if (!(std::isfinite(s.sigma2) && s.sigma2 > 0))
    throw InvalidArgument(
        fmt::format("{}: the noise variance sigma2 must be a finite number > 0, got {}", owner, s.sigma2));
}

double eigenvector_sensitivity(const SpikedSizes& s, double C2, double C5) {
  validate(s, "eigenvector_sensitivity");
  require_constant(C2, "C2");
  require_constant(C5, "C5");
  const double ratio = s.sigma2 / s.lambda;
  const double n = static_cast<double>(s.n);
  return C2 * (ratio + std::sqrt(ratio)) *
         std::sqrt(static_cast<double>(s.p) * (static_cast<double>(s.r) + C5 * std::log(n))) / n;
}

double eigenvalue_sensitivity(const SpikedSizes& s, double C3) {
  validate(s, "eigenvalue_sensitivity");
  require_constant(C3, "C3");
  return C3 * squared_norm_scale(s) / static_cast<double>(s.n);
}

double noise_variance_sensitivity(const SpikedSizes& s, double C4) {
  validate(s, "noise_variance_sensitivity");
  require_constant(C4, "C4");
  const double m = static_cast<double>(std::min(s.p, s.n));
  return C4 / std::sqrt(m) * squared_norm_scale(s) / static_cast<double>(s.n);
}

}  // namespace dpb::alg
