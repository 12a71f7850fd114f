#include "verify/report/grouped_values.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/verify/report/report_fixture.hpp"

TEST_CASE("grouped values: parameters ascending, algorithms in order of appearance, failures counted",
          "[report][grouped]") {
  const auto r = dpb::test::small_results();
  const auto g = dpb::verify::group_values(r, "n", "algorithm", "sin");
  REQUIRE(g.rows.size() == 2);
  CHECK(g.rows[0].label == "100");
  CHECK(g.rows[1].value == 1000);
  REQUIRE(g.columns.size() == 2);
  CHECK(g.columns[0].label == "a");
  CHECK(std::isnan(g.columns[0].value));
  CHECK(g.values.at({1, 0}) == std::vector<double>{0.5, 0.5, 0.8});
  CHECK(g.failed == 1);
  CHECK(g.pooled.empty());
  CHECK(dpb::verify::group_values(r, "k", "algorithm", "sin").rows[0].label == "n/a");
  CHECK(dpb::verify::metric_names(r) == std::vector<std::string>{"sin"});
  // Rows listed from n = 1000 and algorithm b down: parameters still ascend, algorithms follow the rows.
  auto reversed = r;
  std::reverse(reversed.rows.begin(), reversed.rows.end());
  const auto h = dpb::verify::group_values(reversed, "n", "algorithm", "sin");
  CHECK(h.rows[0].label == "100");
  CHECK(h.columns[0].label == "b");
}

TEST_CASE("value summary: mean, sd, median and quartiles", "[report][grouped]") {
  const auto s = dpb::verify::summarize({0.5, 0.5, 0.8});
  CHECK(s.trials == 3);
  CHECK(s.mean == Approx(0.6));
  CHECK(s.sd == Approx(std::sqrt(0.03)));
  CHECK(s.median == 0.5);
  CHECK(s.q75 == Approx(0.65));
  CHECK(std::isnan(dpb::verify::summarize({1}).sd));
}
