#include "verify/checks/theorem_cells.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/verify/checks/synthetic.hpp"

using dpb::verify::Inconclusive;

namespace {
dpb::verify::CheckSpec rate_spec() { return dpb::test::check_spec("rate", "T", "alg", "sin", "n"); }
}  // namespace

TEST_CASE("theorem cells evaluate the theorem per cell and leave out cells outside its conditions",
          "[checks][theorem_cells]") {
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "sin", {100, 400}, 3, [](double n, std::size_t) { return 1 / n; });
  auto t = dpb::test::power_rate_theorem("T", dpb::bounds::Kind::upper, 0.5);
  const auto all = dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {});
  REQUIRE(all.inside.size() == 2);
  CHECK(all.inside[1].theorem_value == Approx(0.05));
  CHECK(all.inside[1].values.size() == 3);
  t.conditions.push_back(
      {"n > 200", "n > 200", [](const dpb::bounds::Params& p) { return p.at("n") > 200; }});
  const auto some = dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {});
  CHECK(some.inside.size() == 1);
  CHECK(some.outside[0]["cell"] == 0);
}

TEST_CASE("a cell outside the conditions needs no successful trials", "[checks][theorem_cells]") {
  // dugler2026 PRIVRANGE below Theorem 5's block size releases nothing: such a cell must not stop the check.
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "sin", {100, 400}, 3, [](double n, std::size_t) { return 1 / n; });
  for (auto& row : r.rows)
    if (row.cell == 0) row.metrics.clear();
  auto t = dpb::test::power_rate_theorem("T", dpb::bounds::Kind::upper, 0.5);
  CHECK_THROWS_WITH(dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {}),
                    Catch::Contains("cell 0 has 0 successful trials"));
  t.conditions.push_back({"n > 200", "n > 200", [](const dpb::bounds::Params& p) { return p.at("n") > 200; }});
  const auto cells = dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {});
  REQUIRE(cells.inside.size() == 1);
  CHECK(cells.inside[0].cell == 1);
}

TEST_CASE("a high-probability theorem reads its own zeta unless the cell sets one", "[checks][theorem_cells]") {
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "sin", {100, 400}, 3, [](double n, std::size_t) { return 1 / n; });
  auto t = dpb::test::power_rate_theorem("T", dpb::bounds::Kind::upper, 0.5);
  t.semantics = {true, 0.05};
  t.rate = [](const dpb::bounds::Params& p) { return p.at("zeta") / std::sqrt(p.at("n")); };
  const auto cells = dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {});
  REQUIRE(cells.inside.size() == 2);
  CHECK(cells.inside[0].theorem_value == Approx(0.05 / 10));
  CHECK(cells.inside[0].params.at("zeta") == 0.05);
  t.semantics = {false, 0};  // an expectation bound has no zeta to offer
  CHECK_THROWS_AS(dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {}), Inconclusive);
}

TEST_CASE("theorem cells refuse what cannot support a verdict", "[checks][theorem_cells]") {
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "sin", {100, 400}, 3, [](double n, std::size_t) { return 1 / n; });
  auto t = dpb::test::power_rate_theorem("T", dpb::bounds::Kind::upper, 0.5);
  auto other = rate_spec();
  other.algorithm = std::string("missing");
  CHECK_THROWS_WITH(dpb::verify::theorem_cells(r, other, t, t.rate, "rate", {}),
                    Catch::Contains("present: alg"));
  const auto negative = [](const dpb::bounds::Params&) { return -1.0; };
  CHECK_THROWS_AS(dpb::verify::theorem_cells(r, rate_spec(), t, negative, "rate", {}), Inconclusive);
  t.conditions.push_back(
      {"k <= d", "", [](const dpb::bounds::Params& p) { return dpb::bounds::param(p, "k") <= 1; }});
  CHECK_THROWS_WITH(dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {}),
                    Catch::Contains("'k'"));
}

TEST_CASE("a check's params reach every cell, but may not restate what a cell carries", "[checks][theorem_cells]") {
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "sin", {100, 400}, 3, [](double n, std::size_t) { return 1 / n; });
  auto t = dpb::test::power_rate_theorem("T", dpb::bounds::Kind::upper, 0.5);
  t.rate = [](const dpb::bounds::Params& p) { return dpb::bounds::param(p, "M") / std::sqrt(p.at("n")); };
  auto fixed = rate_spec();
  fixed.params = {{"M", 3}};
  const auto cells = dpb::verify::theorem_cells(r, fixed, t, t.rate, "rate", {});
  REQUIRE(cells.inside.size() == 2);
  CHECK(cells.inside[1].theorem_value == Approx(3.0 / 20));
  CHECK(cells.inside[0].params.at("M") == 3);
  fixed.params = {{"n", 50}};  // the cell's own n must win, never a silent override
  CHECK_THROWS_WITH(dpb::verify::theorem_cells(r, fixed, t, t.rate, "rate", {}),
                    Catch::Contains("carries it already"));
}

TEST_CASE("with no cell inside, the message names each failing condition and where along the sweep they hold",
          "[checks][theorem_cells]") {
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "sin", {100, 400}, 3, [](double n, std::size_t) { return 1 / n; });
  auto t = dpb::test::power_rate_theorem("T", dpb::bounds::Kind::upper, 0.5);
  t.conditions.push_back({"burn-in", "n > 1500", [](const dpb::bounds::Params& p) { return p.at("n") > 1500; }});
  // 1500 lies between 400 * 2^1 and 400 * 2^2: the scan brackets it and bisection brings it to 3 digits.
  CHECK_THROWS_WITH(dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {}),
                    Catch::Contains("'burn-in' (n > 1500) fails in 2 of 2 cells") &&
                        Catch::Contains("where n = 400, they hold at n >= 1.5e+03"));
  // A second condition that no n satisfies together with the first: said so, not a wrong threshold.
  t.conditions.push_back({"small", "n < 1000", [](const dpb::bounds::Params& p) { return p.at("n") < 1000; }});
  CHECK_THROWS_WITH(dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {}),
                    Catch::Contains("they hold at no n within a factor 2^50"));
  // Every failing condition is named, not only the first one a cell fails; one that holds is not.
  t.conditions.push_back({"tiny", "n < 50", [](const dpb::bounds::Params& p) { return p.at("n") < 50; }});
  CHECK_THROWS_WITH(dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {}),
                    Catch::Contains("'burn-in' (n > 1500) fails in 2 of 2 cells") &&
                        Catch::Contains("'tiny' (n < 50) fails in 2 of 2 cells") &&
                        !Catch::Contains("'small'"));
  // Conditions that hold below the grid are found downwards.
  t.conditions = {{"few", "n <= 30", [](const dpb::bounds::Params& p) { return p.at("n") <= 30; }}};
  CHECK_THROWS_WITH(dpb::verify::theorem_cells(r, rate_spec(), t, t.rate, "rate", {}),
                    Catch::Contains("they hold at n <= 30"));
}

TEST_CASE("with no cell inside, a sweep over epsilon moves the eps the theorems read, and a model axis is not scanned",
          "[checks][theorem_cells]") {
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "sin", {100, 400}, 3, [](double n, std::size_t) { return 1 / n; });
  for (auto& row : r.rows) {  // cells carry both names, as the runner writes them (verify/runner/cells.cpp)
    row.cell_params["epsilon"] = row.cell_params.at("n") / 1000;
  }
  auto t = dpb::test::power_rate_theorem("T", dpb::bounds::Kind::upper, 0.5);
  t.conditions.push_back({"eps regime", "eps >= 1", [](const dpb::bounds::Params& p) { return p.at("epsilon") >= 1; }});
  auto over_epsilon = rate_spec();
  over_epsilon.vary = "epsilon";
  CHECK_THROWS_WITH(dpb::verify::theorem_cells(r, over_epsilon, t, t.rate, "rate", {}),
                    Catch::Contains("they hold at epsilon >= 1"));
  auto over_d = rate_spec();
  over_d.vary = "d";
  for (auto& row : r.rows) row.cell_params["d"] = 5;
  const auto message = [&] {
    try {
      dpb::verify::theorem_cells(r, over_d, t, t.rate, "rate", {});
    } catch (const Inconclusive& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  CHECK_THAT(message, Catch::Contains("'eps regime' (eps >= 1) fails in 2 of 2 cells") && !Catch::Contains("hold at"));
}
