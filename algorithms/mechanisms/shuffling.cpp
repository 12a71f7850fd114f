#include "algorithms/mechanisms/shuffling.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"

namespace dpb::alg {

double shuffled_epsilon(double eps0, std::int64_t n, double delta_s) {
  const double nd = static_cast<double>(n);
  if (!(eps0 <= std::log(nd / (16 * std::log(2 / delta_s))))) return std::numeric_limits<double>::infinity();
  const double e0 = std::exp(eps0);
  // spec: liu2022 §3.1 [external]
  return std::log1p((e0 - 1) / (e0 + 1) *
                    (8 * std::sqrt(e0 * std::log(4 / delta_s)) / std::sqrt(nd) + 8 * e0 / nd));
}

ShufflingDeltas shuffling_deltas(double epsilon, double delta, std::int64_t n) {
  // (1 + e^{-eps0}/2) <= 3/2, so (e^eps + 1) (3/2) n delta0 = delta/2.
  return {delta / 2, delta / (3 * static_cast<double>(n) * (std::exp(epsilon) + 1))};
}

ShuffledGuarantee shuffled_gaussian_guarantee(double noise_multiplier, std::int64_t n, double eps_split,
                                              double delta) {
  const ShufflingDeltas d = shuffling_deltas(eps_split, delta, n);
  const double eps0 = gaussian_epsilon(noise_multiplier, d.delta0);
  const double eps = shuffled_epsilon(eps0, n, d.delta_s);
  if (!std::isfinite(eps)) return {eps, delta};
  return {eps,
          d.delta_s + (std::exp(eps) + 1) * (1 + std::exp(-eps0) / 2) * static_cast<double>(n) * d.delta0};
}

bool shuffling_applies(double delta, std::int64_t n) {
  return delta > 0 && delta < 1 && static_cast<double>(n) > 16 * std::log(4 / delta);
}

double shuffling_noise_multiplier(double epsilon, double delta, std::int64_t n) {
  if (!shuffling_applies(delta, n))
    throw InvalidArgument(
        fmt::format("amplification by shuffling needs n > 16 log(4/delta) = {:.3g}, got n = {}",
                    16 * std::log(4 / delta), n));
  const ShufflingDeltas d = shuffling_deltas(epsilon, delta, n);
  const auto excess = [&](double log_alpha) {
    const double eps0 = gaussian_epsilon(std::exp(log_alpha), d.delta0);
    return std::min(shuffled_epsilon(eps0, n, d.delta_s), 1e3) - epsilon;
  };
  double lo = -4, hi = 4;
  while (excess(hi) > 0) hi += 2;
  while (excess(lo) < 0 && lo > -40) lo -= 2;
  boost::uintmax_t iterations = 200;
  const auto [a, b] = boost::math::tools::toms748_solve(
      excess, lo, hi, boost::math::tools::eps_tolerance<double>(40), iterations);
  (void)a;
  return std::exp(b);  // the side where the bound is <= eps
}

}  // namespace dpb::alg
