#include "algorithms/mechanisms/shuffling.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"

using namespace dpb::alg;

TEST_CASE("shuffling calibration meets the explicit shuffling bound", "[mechanisms][privacy]") {
  // spec liu2022 §3.1: the calibrated alpha gives eps_shuffled(eps0(alpha)) = eps (to root-finding accuracy),
  // and a 5% smaller alpha exceeds it (it is the smallest such alpha).
  const double eps = 0.5, delta = 1e-5;
  const std::int64_t n = 100000;
  const double alpha = shuffling_noise_multiplier(eps, delta, n);
  const ShufflingDeltas d = shuffling_deltas(eps, delta, n);
  CHECK(d.delta0 == Approx(delta / (3 * static_cast<double>(n) * (std::exp(eps) + 1))));
  CHECK(shuffled_epsilon(gaussian_epsilon(alpha, d.delta0), n, d.delta_s) <= eps * (1 + 1e-9));
  CHECK(shuffled_epsilon(gaussian_epsilon(0.95 * alpha, d.delta0), n, d.delta_s) > eps);
  // The guarantee's delta stays within the total.
  const ShuffledGuarantee g = shuffled_gaussian_guarantee(alpha, n, eps, delta);
  CHECK(g.epsilon <= eps * (1 + 1e-9));
  CHECK(g.delta <= delta);
  // Amplification: far less noise than one Gaussian step at (eps, delta) would need.
  CHECK(alpha < 0.5 * std::sqrt(2 * std::log(1.25 / delta)) / eps);
  // Outside eps0 <= log(n/(16 log(2/delta))) the bound is not available.
  CHECK(std::isinf(shuffled_epsilon(20, n, delta / 2)));
}

TEST_CASE("shuffling calibration refuses n too small for the bound instead of searching forever",
          "[mechanisms][privacy]") {
  // n <= 16 log(4/delta): no eps0 > 0 meets the condition, so no alpha can (the search used not to end).
  CHECK_FALSE(shuffling_applies(1e-5, 100));
  CHECK(shuffling_applies(1e-5, 1000));
  CHECK_THROWS_AS(shuffling_noise_multiplier(1, 1e-5, 100), dpb::InvalidArgument);
}
