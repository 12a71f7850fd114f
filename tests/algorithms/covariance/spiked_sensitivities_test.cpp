#include "algorithms/covariance/spiked_sensitivities.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

TEST_CASE("cai2024 sensitivities: Delta1, Delta2, Delta3 by hand and their validation", "[cai2024]") {
  const dpb::alg::SpikedSizes s{100, 25, 3, 4.0, 1.0};
  const double L = std::log(100.0);
  // sigma^2/lambda = 1/4: (1/4 + 1/2) sqrt(25 (3 + L))/100 per unit C2.
  CHECK(dpb::alg::eigenvector_sensitivity(s, 2.0, 1.0) ==
        Approx(2 * 0.75 * 5 * std::sqrt(3 + L) / 100).epsilon(1e-14));
  CHECK(dpb::alg::eigenvector_sensitivity(s, 1.0, 4.0) ==
        Approx(0.75 * 5 * std::sqrt(3 + 4 * L) / 100).epsilon(1e-14));
  CHECK(dpb::alg::eigenvalue_sensitivity(s, 3.0) ==
        Approx(3 * (4 * (3 + L) + (25 + L)) / 100).epsilon(1e-14));
  // p ∧ n = 25: C4 / 5.
  CHECK(dpb::alg::noise_variance_sensitivity(s, 6.0) ==
        Approx(6.0 / 5 * (4 * (3 + L) + (25 + L)) / 100).epsilon(1e-14));
  CHECK_THROWS_AS(dpb::alg::eigenvalue_sensitivity({100, 25, 3, 0.0, 1.0}, 3.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::alg::eigenvalue_sensitivity({100, 25, 3, 4.0, -1.0}, 3.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::alg::eigenvalue_sensitivity({0, 25, 3, 4.0, 1.0}, 3.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::alg::eigenvector_sensitivity(s, 0.0, 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::alg::noise_variance_sensitivity(s, std::nan("")), dpb::InvalidArgument);
}
