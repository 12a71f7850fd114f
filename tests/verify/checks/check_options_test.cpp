#include "verify/checks/check_options.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"

TEST_CASE("check options: the defaults are valid and each bad option is named", "[checks][options]") {
  dpb::verify::CheckOptions o;
  CHECK_NOTHROW(dpb::verify::validate(o));
  o.confidence = 1;
  CHECK_THROWS_WITH(dpb::verify::validate(o), Catch::Contains("confidence"));
  o = {};
  o.bootstrap_resamples = 10;
  CHECK_THROWS_WITH(dpb::verify::validate(o), Catch::Contains("bootstrap_resamples"));
  o = {};
  o.min_trials_per_cell = 1;
  CHECK_THROWS_AS(dpb::verify::validate(o), dpb::InvalidArgument);
  o = {};
  o.consistency_step = 1;
  CHECK_THROWS_WITH(dpb::verify::validate(o), Catch::Contains("consistency_step"));
}
