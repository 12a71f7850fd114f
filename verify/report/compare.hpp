#pragma once
// `dpbounds compare RESULTS_A RESULTS_B`: a regression gate between two runs (docs/compare.md). For every
// (cell, algorithm, metric) both runs hold, a two-sample test of the error distributions, Holm-corrected
// over all comparisons; for every audit both runs hold, the change of its eps_lb and Gaussian-DP mu. B is
// *worse* when some error grew significantly, when an audit of B shows significantly more privacy loss
// than A's (or a violation of A's claim that A's audit did not), or when something of A has no match in B
// (a renamed label is paired with --map OLD=NEW): a gate never passes on what it did not compare.
#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "verify/store/results.hpp"

namespace dpb::verify {

struct CompareOptions {
  std::vector<std::string> metrics;  // empty: every metric both runs share
  double alpha = 0.05;               // family-wise error rate of the Holm procedure, in (0, 1)
  std::vector<std::string> maps;     // "OLD=NEW": A's algorithm label OLD is B's NEW
};

// Mann-Whitney U test of "B's values tend to be larger than A's" against "neither tends to be larger".
struct RankTest {
  double u_b = 0;             // U statistic of B: pairs (a, b) with b > a, ties counted 1/2
  double z = 0;               // continuity-corrected normal score of U_B; > 0 when B tends to be larger
  double p_two_sided = 1;     // normal approximation with tie correction
  double rank_biserial = 0;   // effect size 2 U_B / (n_A n_B) - 1 in [-1, 1]; > 0 when B tends to be larger
};
// Throws dpb::InvalidArgument when either sample is empty or holds a non-finite value.
RankTest mann_whitney(const std::vector<double>& a, const std::vector<double>& b);

// Holm-Bonferroni adjusted p-values, in the order of `p`: the i-th smallest p_(i) (i = 1..m) becomes
// max over j <= i of min(1, (m - j + 1) p_(j)). Rejecting where the adjusted p <= alpha controls the
// family-wise error rate at alpha.
std::vector<double> holm_adjust(const std::vector<double>& p);

enum class Change { none, worse, better };
std::string to_string(Change change);

struct ErrorComparison {
  std::map<std::string, double> cell_params;  // the matched cell's parameters
  std::string algorithm, metric;
  std::size_t trials_a = 0, trials_b = 0;  // trials holding the metric (failed trials have none)
  double mean_a = 0, mean_b = 0;
  RankTest test;
  double p_adjusted = 1;      // Holm over every error comparison
  Change change = Change::none;  // worse: significantly larger errors in B
};

// Each audit's held-out tests, read with one-sided Clopper-Pearson intervals at the audit's confidence:
// the privacy loss B's tests show for certain (eps_lb, and mu from B's Gaussian-DP test) against the
// most A's tests are consistent with (their upper ends). Above it, B leaks more than A: WORSE.
struct AuditComparison {
  std::string algorithm, neighbours;   // matched on both
  double claimed_epsilon_a = 0;        // the epsilon A's audit tested (after any add/remove conversion)
  double eps_lb_a = 0, eps_lb_b = 0;   // infinity where the audit wrote null (unbounded)
  double eps_upper_a = 0;              // the largest eps A's Clopper-Pearson tests are consistent with
  double mu_upper_a = 0, mu_lower_b = 0;  // Gaussian-DP mu: A's upper ends, B's lower ends (max over directions)
  std::string verdict_a, verdict_b;
  Change change = Change::none;        // worse: see `reason`
  std::string reason;                  // why it is worse ("" otherwise)
};

struct Comparison {
  double alpha = 0.05;
  std::vector<ErrorComparison> errors;
  std::vector<AuditComparison> audits;
  std::vector<std::string> unmatched;  // what of A has no match in B: "(cell) algorithm" or "audit ..."
  bool has_worse_change() const;  // some error or audit comparison's change is `worse`
  bool worse() const;  // a worse change, or something of A went unmatched: the gate fails
};

// Matches cells by their parameters and algorithms by their labels (A's renamed by options.maps). Throws
// dpb::InvalidArgument when the runs share no (cell, algorithm), when a requested metric is not held by
// both, alpha is not in (0, 1), or a map names a label A does not hold.
Comparison compare_results(const ResultSet& a, const ResultSet& b, const CompareOptions& options);
// The audits of two audits.json arrays (verify/audit/audit_report.hpp's to_json, read back by stored_audit),
// matched by what was asked (algorithm, parameters, data, budget, neighbours, score); an audit of A without a
// match in B is added to `unmatched`. Throws dpb::InvalidArgument when an entry is not one to_json wrote.
std::vector<AuditComparison> compare_audits(const nlohmann::json& a, const nlohmann::json& b,
                                            std::vector<std::string>& unmatched);

// Both of the above on two results directories (or their results.sqlite): the latest run of each store,
// and its audits.json where both directories have one. dpb::InvalidArgument when a store is missing.
Comparison compare_runs(const std::filesystem::path& a, const std::filesystem::path& b,
                        const CompareOptions& options);

// Every comparison as a table, then the significant changes and the gate's outcome.
std::string to_text(const Comparison& comparison);
nlohmann::json to_json(const Comparison& comparison);

}  // namespace dpb::verify
