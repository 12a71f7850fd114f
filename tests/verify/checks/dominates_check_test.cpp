#include "verify/checks/dominates_check.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "tests/verify/checks/synthetic.hpp"
#include "verify/checks/run_checks.hpp"

using dpb::verify::CheckSpec;
using dpb::verify::VerdictStatus;

namespace {

const std::vector<double> kNs = {100, 1000, 10000};
constexpr std::size_t kTrials = 30;
// Errors c n^-1/2 with a uniform +-20% factor: the difference of two cell means has sd about
// 0.2 / sqrt(3) * sqrt(2 / 30) = 3% of B's mean, so a gap of 20% or more is > 6 sd: beyond the
// Bonferroni-corrected interval (z about 2.4 for 3 cells at 95%) whichever way it goes.
constexpr double kSpread = 0.2;

CheckSpec dominates(double tolerance) {
  CheckSpec c = dpb::test::check_spec("dominates", "", "A", "sin", "", "B");
  c.tolerance = tolerance;
  return c;
}

// A's errors are `ratio` times B's scale; independent streams unless `same_stream`.
dpb::verify::ResultSet pair(double ratio, bool same_stream = false) {
  dpb::verify::ResultSet r;
  r.experiment = std::string("synthetic");
  dpb::test::add_trials(r, "A", "sin", kNs, kTrials, dpb::test::power_law(ratio, 0.5, kSpread, 1));
  dpb::test::add_trials(r, "B", "sin", kNs, kTrials, dpb::test::power_law(1, 0.5, kSpread, same_stream ? 1 : 2));
  return r;
}

VerdictStatus verdict(const dpb::verify::ResultSet& results, double tolerance) {
  return dpb::verify::check_dominates(results, dominates(tolerance), 5, {}).status;
}

}  // namespace

TEST_CASE("dominates: PASS when A is clearly below B in every cell, FAIL when clearly above in one",
          "[checks][dominates]") {
  CHECK(verdict(pair(0.5), 0) == VerdictStatus::pass);
  CHECK(verdict(pair(1.5), 0) == VerdictStatus::fail);
  // Above in a single cell is enough to FAIL: B's last cell is scaled down to a quarter.
  auto one_cell = pair(0.5);
  for (auto& row : one_cell.rows)
    if (row.algorithm == "B" && row.cell == 2) row.metrics["sin"] /= 4;
  const auto v = dpb::verify::check_dominates(one_cell, dominates(0), 5, {});
  CHECK(v.status == VerdictStatus::fail);
  CHECK(v.figures["cells"].size() == kNs.size());
}

TEST_CASE("dominates: the tolerance allows A up to (1 + tolerance) B", "[checks][dominates]") {
  CHECK(verdict(pair(1.2), 0.4) == VerdictStatus::pass);
  CHECK(verdict(pair(1.2), 0) == VerdictStatus::fail);
}

TEST_CASE("dominates: equal errors are too close to call", "[checks][dominates]") {
  // Identical samples: the bootstrap interval of the difference is centred on 0.
  CHECK(verdict(pair(1, true), 0) == VerdictStatus::inconclusive);
}

TEST_CASE("dominates: unjudgeable data is INCONCLUSIVE through run_checks, a malformed spec throws",
          "[checks][dominates]") {
  dpb::verify::ResultSet disjoint;
  dpb::test::add_trials(disjoint, "A", "sin", {100}, kTrials, dpb::test::power_law(1, 0.5, kSpread, 1));
  auto verdicts = dpb::verify::run_checks(disjoint, {dominates(0)}, 5, {});
  REQUIRE(verdicts.size() == 1);
  CHECK(verdicts[0].status == VerdictStatus::inconclusive);
  CHECK_THAT(verdicts[0].summary, Catch::Contains("share no cell"));

  dpb::verify::ResultSet one_trial;
  dpb::test::add_trials(one_trial, "A", "sin", kNs, 1, dpb::test::power_law(1, 0.5, kSpread, 1));
  dpb::test::add_trials(one_trial, "B", "sin", kNs, 1, dpb::test::power_law(1, 0.5, kSpread, 2));
  verdicts = dpb::verify::run_checks(one_trial, {dominates(0)}, 5, {});
  CHECK(verdicts[0].status == VerdictStatus::inconclusive);
  CHECK_THAT(verdicts[0].summary, Catch::Contains("need 2 each"));

  auto no_against = dominates(0);
  no_against.against.clear();
  CHECK_THROWS_AS(dpb::verify::run_checks(pair(1), {no_against}, 5, {}), dpb::InvalidArgument);
}

TEST_CASE("dominates: one contradicted cell FAILs even when another cannot be judged, a PASS needs every cell",
          "[checks][dominates]") {
  // The dugler2026 reproduction: ADADPO refuses the smallest n (its batch cannot be feasible), and is 100x above
  // the baselines in every other cell; that is a contradiction of "lowest error in every cell", not a lack of data.
  const auto without_a_in_first_cell = [](double ratio) {
    auto r = pair(ratio);
    for (auto& row : r.rows)
      if (row.algorithm == "A" && row.cell == 0) {
        row.metrics.clear();
        row.error = "needs a larger batch";
      }
    return r;
  };
  const auto above = dpb::verify::check_dominates(without_a_in_first_cell(1.5), dominates(0), 5, {});
  CHECK(above.status == VerdictStatus::fail);
  CHECK_THAT(above.summary, Catch::Contains("1 cell(s) left out: cell 0 has 0 and 30 successful trials"));
  CHECK(above.figures["cells"].size() == kNs.size() - 1);
  const auto below = dpb::verify::check_dominates(without_a_in_first_cell(0.5), dominates(0), 5, {});
  CHECK(below.status == VerdictStatus::inconclusive);
  CHECK_THAT(below.summary, Catch::Contains("holds in the 2 cells that can be judged, but cell 0 has 0 and 30"));
}

TEST_CASE("dominates: the verdict does not depend on the order of the rows", "[checks][dominates]") {
  auto results = pair(1.02);
  const auto before = dpb::verify::check_dominates(results, dominates(0), 5, {});
  std::reverse(results.rows.begin(), results.rows.end());
  const auto after = dpb::verify::check_dominates(results, dominates(0), 5, {});
  CHECK(before.figures == after.figures);
}

TEST_CASE("dominates: where restricts the claim to the cells in its ranges", "[checks][dominates]") {
  // A is below B for n <= 1000 and 4x above at n = 10000: the crossing of cai2024 Fig 2 (vs lambda).
  auto crossing = pair(0.5);
  for (auto& row : crossing.rows)
    if (row.algorithm == "A" && row.cell == 2) row.metrics["sin"] *= 8;
  auto small_n = dominates(0);
  small_n.where = {{"n", {100, 1000}}};
  const auto below = dpb::verify::check_dominates(crossing, small_n, 5, {});
  CHECK(below.status == VerdictStatus::pass);
  CHECK(below.figures["cells"].size() == 2);
  CHECK_THAT(below.summary, Catch::Contains("where n in [100, 1000]"));
  auto large_n = dominates(0);
  large_n.where = {{"n", {5000, 1e6}}};
  CHECK(dpb::verify::check_dominates(crossing, large_n, 5, {}).status == VerdictStatus::fail);
  CHECK(verdict(crossing, 0) == VerdictStatus::fail);  // over every cell
  auto empty = dominates(0);
  empty.where = {{"n", {2000, 3000}}};
  const auto none = dpb::verify::run_checks(crossing, {empty}, 5, {});
  CHECK(none[0].status == VerdictStatus::inconclusive);
  CHECK_THAT(none[0].summary, Catch::Contains("share no cell") && Catch::Contains("where n in [2000, 3000]"));
}

TEST_CASE("a claim's note goes beside a FAIL, and not beside a PASS", "[checks][dominates]") {
  // Issue 21: why a reproduction contradicts a paper was said only in docs/papers/<key>.md.
  auto check = dominates(0);
  check.note = "a constant the paper leaves open";
  const auto failed = dpb::verify::run_checks(pair(1.5), {check}, 5).at(0);
  CHECK(failed.status == VerdictStatus::fail);
  CHECK(failed.summary.find("(known reason: a constant the paper leaves open)") != std::string::npos);
  const auto passed = dpb::verify::run_checks(pair(0.5), {check}, 5).at(0);
  CHECK(passed.status == VerdictStatus::pass);
  CHECK(passed.summary.find("known reason") == std::string::npos);
}
