#include "verify/report/compare.hpp"

#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"

using dpb::verify::Change;
using dpb::verify::CompareOptions;
using dpb::verify::ResultSet;
using dpb::verify::TrialRow;

namespace {

constexpr std::size_t kTrials = 40;

// Two-sided normal tail 2 (1 - Phi(|z|)), written independently of the code under test.
double two_sided_p(double z) { return std::erfc(std::abs(z) / std::sqrt(2.0)); }

// Skewed, positive per-trial errors like a private estimator's: scale * exp(N(0, 0.5^2)).
std::vector<double> lognormal_errors(std::uint64_t stream, double scale) {
  dpb::core::Rng rng(7, stream);
  std::vector<double> x(kTrials);
  for (auto& v : x) v = scale * std::exp(0.5 * dpb::core::standard_normal(rng));
  return x;
}

// Rows of one cell (cell index `cell`, parameter n) and one algorithm, metric `sin`.
void add_cell(ResultSet& results, std::size_t cell, double n, const std::vector<double>& errors,
              const std::string& label = "baseline.dp_gauss_1[clip_constant=2]") {
  for (std::size_t t = 0; t < errors.size(); ++t) {
    TrialRow row;
    row.cell = cell;
    row.cell_params = {{"n", n}, {"d", 10}};
    row.algorithm = label;
    row.trial = t;
    row.metrics = {{"sin", errors[t]}};
    results.rows.push_back(row);
  }
}

const dpb::verify::ErrorComparison& at_n(const dpb::verify::Comparison& c, double n) {
  for (const auto& e : c.errors)
    if (e.cell_params.at("n") == n) return e;
  FAIL("no comparison for n = " << n);
  return c.errors.front();
}

// An audits.json entry whose held-out tests (both, in both directions) put `positives_in` of 1000 runs on
// the positive dataset and `negatives_in` of 1000 on the negative one inside their event.
nlohmann::json audit(double claimed, const nlohmann::json& eps_lb, const std::string& scope = "worst_case",
                     long positives_in = 500, long negatives_in = 500) {
  const nlohmann::json test = {
      {"positives_in", positives_in}, {"positives", 1000}, {"negatives_in", negatives_in}, {"negatives", 1000}};
  const nlohmann::json direction = {{"clopper_pearson_test", test}, {"gdp_test", test}};
  return {{"algorithm", "baseline.dp_gauss_1"},
          {"verdict", "PASS"},
          {"claim", {{"scope", scope}}},
          {"audited", {{"epsilon", claimed}, {"delta", 1e-5}}},
          {"confidence", 0.95},
          {"neighbours", {{"construction", "huge_norm"}}},
          {"epsilon_lower", eps_lb},
          {"directions", {direction, direction}}};
}

}  // namespace

TEST_CASE("mann_whitney matches the hand computation without ties", "[compare]") {
  const auto test = dpb::verify::mann_whitney({1, 2, 3}, {4, 5, 6});
  // Every b exceeds every a: U_B = 3 * 3 = 9, E U = 4.5, Var U = 3 * 3 * 7 / 12 = 5.25.
  CHECK(test.u_b == 9);
  CHECK(test.rank_biserial == 1);
  CHECK(test.z == Approx((4.5 - 0.5) / std::sqrt(5.25)));
  CHECK(test.p_two_sided == Approx(two_sided_p(4.0 / std::sqrt(5.25))));
  // Swapping the samples mirrors the statistic.
  const auto swapped = dpb::verify::mann_whitney({4, 5, 6}, {1, 2, 3});
  CHECK(swapped.u_b == 0);
  CHECK(swapped.z == Approx(-test.z));
  CHECK(swapped.p_two_sided == Approx(test.p_two_sided));
}

TEST_CASE("mann_whitney uses mid-ranks and the tie-corrected variance", "[compare]") {
  // Pooled 1,1,1 (mid-rank 2) and 2,2,2 (mid-rank 5); B = {1,2,2}: R_B = 12, U_B = 12 - 6 = 6.
  // Var U = 9/12 (7 - (24 + 24) / (6 * 5)) = 4.05; z = (6 - 4.5 - 0.5) / sqrt(4.05).
  const auto test = dpb::verify::mann_whitney({1, 1, 2}, {1, 2, 2});
  CHECK(test.u_b == 6);
  CHECK(test.z == Approx(1 / std::sqrt(4.05)));
  CHECK(test.p_two_sided == Approx(two_sided_p(1 / std::sqrt(4.05))));
  const auto all_tied = dpb::verify::mann_whitney({2, 2}, {2, 2, 2});
  CHECK(all_tied.z == 0);
  CHECK(all_tied.p_two_sided == 1);
}

TEST_CASE("mann_whitney rejects empty or non-finite samples", "[compare]") {
  CHECK_THROWS_AS(dpb::verify::mann_whitney({}, {1}), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::verify::mann_whitney({1, std::nan("")}, {1}), dpb::InvalidArgument);
}

TEST_CASE("holm_adjust matches the step-down procedure computed by hand", "[compare]") {
  // Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> running max 0.06.
  const auto adjusted = dpb::verify::holm_adjust({0.01, 0.04, 0.03, 0.005});
  REQUIRE(adjusted.size() == 4);
  CHECK(adjusted[0] == Approx(0.03));
  CHECK(adjusted[1] == Approx(0.06));
  CHECK(adjusted[2] == Approx(0.06));
  CHECK(adjusted[3] == Approx(0.02));
  CHECK(dpb::verify::holm_adjust({0.6, 0.9})[1] == 1);  // capped at 1
}

// The error samples use a fixed seed, so every verdict below is deterministic. A factor-2 shift of a
// lognormal(0, 0.5) is a shift of 1.39 standard deviations in log scale; with 40 trials per side the
// rank test's p is about 1e-8, far below Holm's alpha / m. Two samples of the same distribution are
// flagged with probability at most alpha = 0.05 for any seed, and not for this one.
TEST_CASE("compare_results flags a shifted error distribution in the matched cell only", "[compare]") {
  ResultSet a, b;
  add_cell(a, 0, 1000, lognormal_errors(1, 0.1));
  add_cell(a, 1, 2000, lognormal_errors(2, 0.1));
  // B lists its cells in the other order and adds one A lacks: cells are matched by parameters.
  add_cell(b, 0, 2000, lognormal_errors(3, 0.2));
  add_cell(b, 1, 1000, lognormal_errors(5, 0.1));
  add_cell(b, 2, 4000, lognormal_errors(6, 0.1));
  const auto c = dpb::verify::compare_results(a, b, {});
  REQUIRE(c.errors.size() == 2);
  const auto& shifted = at_n(c, 2000);
  CHECK(shifted.change == Change::worse);
  CHECK(shifted.mean_b > shifted.mean_a);
  CHECK(shifted.test.rank_biserial > 0);
  CHECK(shifted.p_adjusted >= shifted.test.p_two_sided);
  CHECK(at_n(c, 1000).change == Change::none);
  CHECK(c.worse());
  CHECK(dpb::verify::to_text(c).find("WORSE") != std::string::npos);
  CHECK(dpb::verify::to_json(c).at("worse") == true);
}

TEST_CASE("compare_results does not fail when B is better or unchanged", "[compare]") {
  ResultSet a, b;
  add_cell(a, 0, 1000, lognormal_errors(1, 0.2));
  add_cell(a, 1, 2000, lognormal_errors(2, 0.1));
  add_cell(b, 0, 1000, lognormal_errors(3, 0.1));  // half the error: better
  add_cell(b, 1, 2000, lognormal_errors(5, 0.1));  // same distribution
  const auto c = dpb::verify::compare_results(a, b, {});
  CHECK(at_n(c, 1000).change == Change::better);
  CHECK(at_n(c, 2000).change == Change::none);
  CHECK_FALSE(c.worse());
  // A run against itself: every rank sum is at its null mean, so every p is 1.
  for (const auto& e : dpb::verify::compare_results(a, a, {}).errors) CHECK(e.p_adjusted == 1);
}

TEST_CASE("compare_results validates its input", "[compare]") {
  ResultSet a, b;
  add_cell(a, 0, 1000, lognormal_errors(1, 0.1));
  add_cell(b, 0, 3000, lognormal_errors(2, 0.1));
  CHECK_THROWS_AS(dpb::verify::compare_results(a, b, {}), dpb::InvalidArgument);  // no shared cell
  add_cell(b, 1, 1000, lognormal_errors(3, 0.1));
  CHECK_THROWS_AS(dpb::verify::compare_results(a, b, CompareOptions{{"projector_op"}, 0.05, {}}), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::verify::compare_results(a, b, CompareOptions{{}, 1.5, {}}), dpb::InvalidArgument);
  CHECK(dpb::verify::compare_results(a, b, CompareOptions{{"sin"}, 0.05, {}}).errors.size() == 1);
  CHECK_THROWS_WITH(dpb::verify::compare_results(a, b, CompareOptions{{}, 0.05, {"nope=x"}}),
                    Catch::Contains("--map 'nope=x' must be OLD=NEW with OLD an algorithm label of run A"));
}

TEST_CASE("compare_results fails on what it could not compare, and --map pairs a renamed label", "[compare]") {
  // Observed: with the algorithm under test absent from B (a changed argument changed its label), compare
  // said "OK" after comparing only the baseline.
  ResultSet a, b;
  add_cell(a, 0, 1000, lognormal_errors(1, 0.1));
  add_cell(a, 0, 1000, lognormal_errors(2, 0.1), "mine[noise=1]");
  add_cell(a, 1, 2000, lognormal_errors(3, 0.1));
  add_cell(b, 0, 1000, lognormal_errors(1, 0.1));
  add_cell(b, 0, 1000, lognormal_errors(4, 0.1), "mine[noise=0.5]");
  add_cell(b, 1, 2000, lognormal_errors(3, 0.1));
  auto c = dpb::verify::compare_results(a, b, {});
  CHECK(c.unmatched == std::vector<std::string>{"(n=1000) mine[noise=1]"});
  CHECK_FALSE(c.has_worse_change());
  CHECK(c.worse());
  CHECK_THAT(dpb::verify::to_text(c), Catch::Contains("not compared: 1 of A's") && Catch::Contains("FAILED: B does not hold"));
  CHECK(dpb::verify::to_json(c).at("unmatched").size() == 1);
  // Labels hold '=' themselves: the split is the one whose left side is a label of A.
  c = dpb::verify::compare_results(a, b, CompareOptions{{}, 0.05, {"mine[noise=1]=mine[noise=0.5]"}});
  CHECK(c.unmatched.empty());
  CHECK(c.errors.size() == 3);
  CHECK_FALSE(c.worse());
}

TEST_CASE("compare_audits flags a new violation of A's claim, and more privacy loss than A's tests allow",
          "[compare]") {
  const auto one = [](const nlohmann::json& audit) { return nlohmann::json::array({audit}); };
  const auto compare = [](const nlohmann::json& a, const nlohmann::json& b) {
    std::vector<std::string> unmatched;
    auto c = dpb::verify::compare_audits(a, b, unmatched);
    CHECK(unmatched.empty());
    return c;
  };
  // Tests that separate: 950 of 1000 against 100 of 1000 (eps up to about 2.4, mu up to about 3.2).
  constexpr long kIn = 950, kOut = 100;
  auto c = compare(one(audit(1, 0.5, "worst_case", kIn, kOut)), one(audit(1, 1.5, "worst_case", kIn, kOut)));
  REQUIRE(c.size() == 1);
  CHECK(c[0].change == Change::worse);
  CHECK(c[0].eps_lb_b == 1.5);
  CHECK_THAT(c[0].reason, Catch::Contains("violates A's claim"));
  // Already violated in A, and no more than A's tests allow: no change.
  CHECK(compare(one(audit(1, 1.2, "worst_case", kIn, kOut)), one(audit(1, 1.5, "worst_case", kIn, kOut)))[0].change ==
        Change::none);
  // null is an unbounded eps_lb.
  c = compare(one(audit(1, 0.5, "worst_case", kIn, kOut)), one(audit(1, nullptr, "worst_case", kIn, kOut)));
  CHECK(c[0].eps_lb_b == std::numeric_limits<double>::infinity());
  CHECK(c[0].change == Change::worse);
  // No claim, nothing to violate; and the same tests show no more loss.
  CHECK(compare(one(audit(0, 0.5, "not_private", kIn, kOut)), one(audit(0, 3, "not_private", kIn, kOut)))[0].change ==
        Change::none);
  // Observed: halved noise doubled the Gaussian-DP mu while every eps_lb stayed under the claim, and
  // nothing was flagged. Here A's tests (600 vs 400 of 1000: mu about 0.5) against B's (990 vs 10: mu
  // about 4.6), both far below a claim of eps = 10.
  c = compare(one(audit(10, 0.3, "worst_case", 600, 400)), one(audit(10, 3.0, "worst_case", 990, 10)));
  CHECK(c[0].change == Change::worse);
  CHECK(c[0].mu_lower_b > 2 * c[0].mu_upper_a);
  CHECK_THAT(c[0].reason, Catch::Contains("Gaussian-DP mu"));
  // The same tests on both sides: within each other's intervals.
  CHECK(compare(one(audit(10, 0.3, "worst_case", 600, 400)), one(audit(10, 0.3, "worst_case", 600, 400)))[0].change ==
        Change::none);
  // An audit of A that B lacks (other neighbours) is not compared, and said so.
  auto other = audit(1, 3);
  other["neighbours"]["construction"] = "fresh";
  std::vector<std::string> unmatched;
  CHECK(dpb::verify::compare_audits(one(audit(1, 0.5)), one(other), unmatched).empty());
  CHECK(unmatched == std::vector<std::string>{"audit baseline.dp_gauss_1 huge_norm"});
}

TEST_CASE("compare_audits pairs the audits of one algorithm by what was asked, not by the algorithm alone",
          "[compare]") {
  // The suite audits an algorithm twice on the same construction (its defaults, and its sharp worst case at
  // another budget). Listed in the other order in B, each must meet its own counterpart: the default audit's
  // eps_lb 0 against 0.1, the sharp one's 0.8 against 0.85; paired by the algorithm alone, the default audit
  // of A would meet the sharp one of B and be flagged WORSE (0.85 > A's claim 0.5).
  auto defaults_a = audit(0.5, 0.0), sharp_a = audit(1, 0.8, "worst_case", 700, 300);
  defaults_a["asked"] = {{"params", nlohmann::json::object()}, {"epsilon", 0.5}, {"delta", 1e-5}};
  sharp_a["asked"] = {{"params", nlohmann::json::object()}, {"epsilon", 1}, {"delta", 0.05}};
  auto defaults_b = defaults_a, sharp_b = sharp_a;
  defaults_b["epsilon_lower"] = 0.1;
  sharp_b["epsilon_lower"] = 0.85;
  std::vector<std::string> unmatched;
  const auto c = dpb::verify::compare_audits(nlohmann::json::array({defaults_a, sharp_a}),
                                             nlohmann::json::array({sharp_b, defaults_b}), unmatched);
  CHECK(unmatched.empty());
  REQUIRE(c.size() == 2);
  CHECK(c[0].eps_lb_b == 0.1);
  CHECK(c[1].eps_lb_b == 0.85);
  for (const auto& comparison : c) CHECK(comparison.change != dpb::verify::Change::worse);
  // Different parameters are different audits, and the message names them.
  auto on = sharp_a;
  on["asked"]["params"] = {{"clip", "on"}};
  CHECK(dpb::verify::compare_audits(nlohmann::json::array({on}), nlohmann::json::array({sharp_b}), unmatched).empty());
  CHECK(unmatched.back() == "audit baseline.dp_gauss_1 huge_norm {\"clip\":\"on\"}");
}
