#include "verify/checks/error_statistic.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"

using dpb::verify::choose_statistic;

TEST_CASE("error statistic: quantile with enough trials, else the mean, saying why", "[checks][statistic]") {
  CHECK(dpb::verify::trials_for_quantile(0.01, 10) == 1000);
  CHECK(dpb::verify::trials_for_quantile(0.03, 10) == 334);  // ceil(333.33)
  CHECK_THROWS_AS(dpb::verify::trials_for_quantile(0, 10), dpb::InvalidArgument);

  const dpb::bounds::Semantics hp{true, 0.05};  // needs ceil(10 / 0.05) = 200
  const auto q = choose_statistic(hp, 200, 10);
  REQUIRE(q.quantile_level);
  CHECK(*q.quantile_level == Approx(0.95));
  CHECK(q.description.rfind("quantile 0.95:", 0) == 0);
  CHECK(q({1, 2, 3, 4, 5}) == Approx(4.8));  // position 0.95 * 4 = 3.8

  const auto m = choose_statistic(hp, 199, 10);
  CHECK(!m.quantile_level);
  CHECK(m.description.rfind("mean:", 0) == 0);
  CHECK(m.description.find("199") != std::string::npos);
  CHECK(m({1, 2, 3, 4, 5}) == 3);

  const auto e = choose_statistic({false, 0.05}, 100000, 10);
  CHECK(!e.quantile_level);
  CHECK(e.description == "mean: the theorem bounds the expected error");
}
