#include "app/calibration.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

TEST_CASE("calibrate reports the scale and the exact privacy it achieves", "[calibration]") {
  const auto c = dpb::app::calibrate_gaussian(2.0, 0.5, 1e-5, false);
  CHECK(c.scale == Approx(2.0 * std::sqrt(2.0 * std::log(1.25 / 1e-5)) / 0.5).epsilon(1e-14));
  // The classical calibration is conservative: its exact delta at eps is below the target, and the
  // smallest eps it achieves at the target delta is below eps.
  CHECK(c.exact_delta < 1e-5);
  CHECK(c.exact_epsilon < 0.5);

  const auto a = dpb::app::calibrate_gaussian(2.0, 0.5, 1e-5, true);
  CHECK(a.scale < c.scale);
  CHECK(a.exact_delta == Approx(1e-5).epsilon(1e-9));  // tight by construction
  CHECK(a.exact_epsilon == Approx(0.5).epsilon(1e-8));

  const auto l = dpb::app::calibrate_laplace(3.0, 1.5, 0.0);
  CHECK(l.scale == 2.0);
  CHECK(l.exact_epsilon == 1.5);
}

TEST_CASE("calibrate rejects invalid targets", "[calibration]") {
  CHECK_THROWS_AS(dpb::app::calibrate_gaussian(1, 1.5, 1e-5, false), dpb::InvalidArgument);  // eps >= 1
  CHECK_THROWS_AS(dpb::app::calibrate_gaussian(1, 0.5, 0.0, true), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::app::calibrate_gaussian(0, 0.5, 1e-5, true), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::app::calibrate_laplace(1, 0, 0), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::app::calibrate_laplace(1, 1, 1e-5), dpb::InvalidArgument);
}
