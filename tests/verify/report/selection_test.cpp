#include "verify/report/selection.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "tests/verify/checks/synthetic.hpp"

using dpb::verify::SelectionSpec;

namespace {

// Three candidates over two cells with known cell means: "b" (0.2, 0.4: 0.3) beats "a" (0.5, 0.3: 0.4)
// and "c" (0.9, 0.9). "a"'s cells differ in their trial counts, which must not weigh its score: a
// pooled mean over trials would give (0.5 + 3 x 0.3) / 4 = 0.35 instead of 0.4.
dpb::verify::ResultSet candidates() {
  dpb::verify::ResultSet r;
  auto constant = [](double first, double second) {
    return [=](double n, std::size_t) { return n < 150 ? first : second; };
  };
  dpb::test::add_trials(r, "c", "sin", {100, 200}, 2, constant(0.9, 0.9));
  dpb::test::add_trials(r, "a", "sin", {100}, 1, constant(0.5, 0.5));
  dpb::test::add_trials(r, "b", "sin", {100, 200}, 2, constant(0.2, 0.4));
  dpb::test::add_trials(r, "a", "sin", {200}, 3, constant(0.3, 0.3));
  for (auto& row : r.rows) row.cell = row.cell_params.at("n") < 150 ? 0 : 1;
  return r;
}

}  // namespace

TEST_CASE("selection ranks candidates by the mean over cells of each cell's mean", "[report][selection]") {
  const auto ranking = dpb::verify::rank_candidates(candidates(), SelectionSpec{"sin"});
  REQUIRE(ranking.size() == 3);
  CHECK(ranking[0].algorithm == "b");
  CHECK(ranking[0].score == Approx(0.3));
  CHECK(ranking[1].algorithm == "a");
  CHECK(ranking[1].score == Approx(0.4));
  CHECK(ranking[1].cells == 2);
  CHECK(ranking[2].algorithm == "c");
  const auto md = dpb::verify::selection_markdown(ranking, SelectionSpec{"sin"});
  CHECK_THAT(md, Catch::StartsWith("Selected: `b`") && Catch::Contains("| 3 | `c` | 0.9 | 2 |"));
}

TEST_CASE("selection leaves out failed trials and non-finite values, and says when nothing is left",
          "[report][selection]") {
  auto r = candidates();
  for (auto& row : r.rows)
    if (row.algorithm == "b") row.error = "failed";
  r.rows.front().metrics["sin"] = std::numeric_limits<double>::quiet_NaN();  // one of c's trials
  const auto ranking = dpb::verify::rank_candidates(r, SelectionSpec{"sin"});
  REQUIRE(ranking.size() == 2);
  CHECK(ranking[0].algorithm == "a");
  CHECK(ranking[1].score == Approx(0.9));
  CHECK_THAT(dpb::verify::selection_markdown(dpb::verify::rank_candidates(r, SelectionSpec{"cov_op"}), SelectionSpec{"cov_op"}),
             Catch::Contains("nothing to select"));
}

TEST_CASE("a candidate with no value in some cell ranks after every candidate that covers the grid",
          "[report][selection]") {
  // dugler2026 F.2: B = sqrt(n) is infeasible at the smallest n, so its runs fail there; ranked on the cells it
  // has, its mean over the easy cells (0.1) would beat "b"'s 0.3 over all of them.
  auto r = candidates();
  dpb::test::add_trials(r, "skips", "sin", {200}, 2, [](double, std::size_t) { return 0.1; });
  for (auto& row : r.rows)
    if (row.algorithm == "skips") row.cell = 1;
  const auto ranking = dpb::verify::rank_candidates(r, SelectionSpec{"sin"});
  REQUIRE(ranking.size() == 4);
  CHECK(ranking[0].algorithm == "b");
  CHECK(ranking[3].algorithm == "skips");
  CHECK(ranking[3].score == Approx(0.1));
  CHECK(ranking[3].cells == 1);
  CHECK(ranking[3].grid_cells == 2);
  CHECK_THAT(dpb::verify::selection_markdown(ranking, SelectionSpec{"sin"}),
             Catch::Contains("| 4 | `skips` | 0.1 | 1 of 2 (no value elsewhere: ranked last) |"));
}
