#include "lowerbounds/constructions/barber_duchi.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

TEST_CASE("Barber-Duchi (Lemma C.4) against its closed form", "[constructions][liu2022]") {
  // |V| = 11, n = 10, alpha = 0.1 -> m = ceil(1) = 1, eps = 1: E = e^{-1} = 0.3678794.
  //   delta = 0.01: 10 (E/2 - 0.01 (1 - E)/(1 - e^{-1})) / (1 + 10 E) = 10 (0.1839397 - 0.01)/4.678794 =
  //   0.3717619 delta = 0:    10 * 0.1839397 / 4.678794 = 0.3931349
  const double log11 = std::log(11.0);
  CHECK(dpb::lower::barber_duchi_error_probability({10, 0.1, 1, 0.01, log11}) ==
        Approx(0.3717619).epsilon(1e-6));
  CHECK(dpb::lower::barber_duchi_error_probability({10, 0.1, 1, 0, log11}) ==
        Approx(0.3931349).epsilon(1e-6));
  // m = ceil(n alpha): n alpha = 1.05 rounds up to 2: 10 (e^{-2}/2)/(1 + 10 e^{-2}) = 0.2875372.
  CHECK(dpb::lower::barber_duchi_error_probability({10.5, 0.1, 1, 0, log11}) ==
        Approx(0.2875372).epsilon(1e-6));
  // A huge packing never overflows: the bound tends to (E/2 - ...)/E = 1/2 at delta = 0.
  CHECK(dpb::lower::barber_duchi_error_probability({10, 0.1, 1, 0, 1e4}) == Approx(0.5));
}

TEST_CASE("Barber-Duchi is non-increasing in n and eps", "[constructions][liu2022]") {
  double previous = std::numeric_limits<double>::infinity();
  for (double n : {1.0, 10.0, 100.0, 1e3}) {
    const double v = dpb::lower::barber_duchi_error_probability({n, 0.05, 0.5, 1e-6, std::log(100.0)});
    CHECK(v <= previous);
    previous = v;
  }
  previous = std::numeric_limits<double>::infinity();
  for (double eps : {0.1, 0.5, 1.0, 2.0}) {
    const double v = dpb::lower::barber_duchi_error_probability({100, 0.05, eps, 1e-6, std::log(100.0)});
    CHECK(v <= previous);
    previous = v;
  }
  CHECK_THROWS_AS(dpb::lower::barber_duchi_error_probability({10, 0, 1, 0, 1}), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::barber_duchi_error_probability({10, 0.1, 1, 1, 1}), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::barber_duchi_error_probability({10, 0.1, 1, 0, 0}), dpb::InvalidArgument);
}
