#include "verify/compare.hpp"

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
void add_cell(ResultSet& results, std::size_t cell, double n, const std::vector<double>& errors) {
  for (std::size_t t = 0; t < errors.size(); ++t) {
    TrialRow row;
    row.cell = cell;
    row.cell_params = {{"n", n}, {"d", 10}};
    row.algorithm = "baseline.dp_gauss_1[clip_constant=2]";
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

nlohmann::json audit(double claimed, const nlohmann::json& eps_lb, const std::string& scope = "worst_case") {
  return {{"algorithm", "baseline.dp_gauss_1"},
          {"verdict", "PASS"},
          {"claim", {{"scope", scope}}},
          {"audited", {{"epsilon", claimed}, {"delta", 1e-5}}},
          {"neighbours", {{"construction", "huge_norm"}}},
          {"epsilon_lower", eps_lb}};
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
  CHECK_THROWS_AS(dpb::verify::compare_results(a, b, CompareOptions{{"projector_op"}, 0.05}), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::verify::compare_results(a, b, CompareOptions{{}, 1.5}), dpb::InvalidArgument);
  CHECK(dpb::verify::compare_results(a, b, CompareOptions{{"sin"}, 0.05}).errors.size() == 1);
}

TEST_CASE("compare_audits flags a new violation of A's claim only", "[compare]") {
  const auto one = [](const nlohmann::json& audit) { return nlohmann::json::array({audit}); };
  auto c = dpb::verify::compare_audits(one(audit(1, 0.5)), one(audit(1, 1.5)));
  REQUIRE(c.size() == 1);
  CHECK(c[0].change == Change::worse);
  CHECK(c[0].eps_lb_b == 1.5);
  // Already violated in A: no new violation.
  CHECK(dpb::verify::compare_audits(one(audit(1, 1.2)), one(audit(1, 1.5)))[0].change == Change::none);
  // null is an unbounded eps_lb.
  c = dpb::verify::compare_audits(one(audit(1, 0.5)), one(audit(1, nullptr)));
  CHECK(c[0].eps_lb_b == std::numeric_limits<double>::infinity());
  CHECK(c[0].change == Change::worse);
  // No claim, nothing to violate.
  CHECK(dpb::verify::compare_audits(one(audit(0, 0.5, "not_private")), one(audit(0, 3)))[0].change == Change::none);
  // Unmatched neighbours are not compared.
  auto other = audit(1, 3);
  other["neighbours"]["construction"] = "fresh";
  CHECK(dpb::verify::compare_audits(one(audit(1, 0.5)), one(other)).empty());
}
