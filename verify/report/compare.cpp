#include "verify/report/compare.hpp"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <limits>
#include <numeric>
#include <optional>
#include <set>

#include "core/errors.hpp"
#include "verify/audit/audit_report.hpp"
#include "verify/audit/estimators.hpp"
#include "verify/report/cell_label.hpp"
#include "verify/checks/sample_statistics.hpp"
#include "verify/store/store.hpp"

namespace dpb::verify {
namespace {

// Why Mann-Whitney and not Welch: per-trial errors are skewed and heavy-tailed (a few trials where a
// private estimate misses the subspace entirely), so a mean-based t-test is driven by outliers and its
// normal-theory p-values are off at a few dozen trials. The rank test needs no distributional shape,
// and its normal approximation with tie correction is accurate from about 8 trials per side.
constexpr double kContinuityCorrection = 0.5;  // U moves in steps of 1/2 (ties) or 1

// Mid-ranks (1-based, ties share their average rank) of the pooled sample, and sum over tie groups of
// t^3 - t, the tie correction of U's variance.
struct PooledRanks {
  std::vector<double> ranks;
  double tie_term = 0;
};

PooledRanks mid_ranks(const std::vector<double>& pooled) {
  std::vector<std::size_t> order(pooled.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return pooled[i] < pooled[j]; });
  PooledRanks result{std::vector<double>(pooled.size()), 0};
  for (std::size_t start = 0; start < order.size();) {
    std::size_t end = start;
    while (end < order.size() && pooled[order[end]] == pooled[order[start]]) ++end;
    const double rank = 0.5 * static_cast<double>(start + 1 + end);  // mean of ranks start+1 .. end
    for (std::size_t i = start; i < end; ++i) result.ranks[order[i]] = rank;
    const double t = static_cast<double>(end - start);
    result.tie_term += t * t * t - t;
    start = end;
  }
  return result;
}

void require_sample(const std::vector<double>& x, const char* name) {
  if (x.empty()) throw InvalidArgument(fmt::format("mann_whitney: sample {} is empty; each needs a value", name));
  for (double v : x)
    if (!std::isfinite(v)) throw InvalidArgument(fmt::format("mann_whitney: sample {} holds {}; values must be finite", name, v));
}

// ---- matching the rows of two runs -------------------------------------------------------------------

using CellKey = std::pair<std::map<std::string, double>, std::string>;  // (cell parameters, algorithm label)
using MetricValues = std::map<std::string, std::vector<double>>;        // metric -> one value per trial

// `renamed` maps an algorithm label of `results` to the one it is compared under.
std::map<CellKey, MetricValues> values_by_cell(const ResultSet& results,
                                               const std::map<std::string, std::string>& renamed = {}) {
  std::map<CellKey, MetricValues> values;
  for (const auto& row : results.rows) {
    const auto it = renamed.find(row.algorithm);
    auto& metrics = values[{row.cell_params, it == renamed.end() ? row.algorithm : it->second}];
    for (const auto& [metric, value] : row.metrics) metrics[metric].push_back(value);
  }
  return values;
}

std::set<std::string> labels_of(const ResultSet& results) {
  std::set<std::string> labels;
  for (const auto& row : results.rows) labels.insert(row.algorithm);
  return labels;
}

// --map OLD=NEW, where labels hold '=' themselves ("id[k=v]"): the split whose left side is a label of A,
// preferring one whose right side is a label of B.
std::map<std::string, std::string> label_maps(const std::vector<std::string>& maps, const std::set<std::string>& a,
                                              const std::set<std::string>& b) {
  std::map<std::string, std::string> renamed;
  for (const auto& text : maps) {
    std::optional<std::pair<std::string, std::string>> chosen;
    for (std::size_t eq = text.find('='); eq != std::string::npos; eq = text.find('=', eq + 1)) {
      const std::string old_label = text.substr(0, eq), new_label = text.substr(eq + 1);
      if (!a.count(old_label) || new_label.empty()) continue;
      if (!chosen || b.count(new_label)) chosen.emplace(old_label, new_label);
      if (b.count(new_label)) break;
    }
    if (!chosen)
      throw InvalidArgument(fmt::format("--map '{}' must be OLD=NEW with OLD an algorithm label of run A; A's labels: {}",
                                        text, fmt::join(a, "; ")));
    renamed.insert(*chosen);
  }
  return renamed;
}

std::set<std::string> metric_names(const std::map<CellKey, MetricValues>& values) {
  std::set<std::string> names;
  for (const auto& [key, metrics] : values)
    for (const auto& [metric, samples] : metrics) names.insert(metric);
  return names;
}

std::vector<std::string> chosen_metrics(const std::set<std::string>& shared, const std::vector<std::string>& requested) {
  if (requested.empty()) return {shared.begin(), shared.end()};
  for (const auto& metric : requested)
    if (!shared.count(metric))
      throw InvalidArgument(fmt::format("metric '{}' is not held by both runs; shared metrics: {}", metric,
                                        shared.empty() ? "none" : fmt::format("{}", fmt::join(shared, ", "))));
  return requested;
}

// ---- audits --------------------------------------------------------------------------------------------

// The largest eps and mu a test of an audit is consistent with, and the smallest it shows: one-sided
// Clopper-Pearson bounds at the audit's confidence on its held-out counts.
struct TestRange {
  double eps_upper = 0, mu_lower = 0, mu_upper = 0;
};

TestRange test_range(const StoredAuditTest& test, double delta, double alpha) {
  const double tpr_lower = binomial_lower_bound(test.positives_in, test.positives, alpha);
  const double tpr_upper = binomial_upper_bound(test.positives_in, test.positives, alpha);
  const double fpr_lower = binomial_lower_bound(test.negatives_in, test.negatives, alpha);
  const double fpr_upper = binomial_upper_bound(test.negatives_in, test.negatives, alpha);
  return {epsilon_from_rates(tpr_upper, fpr_lower, delta), gdp_mu(fpr_upper, 1 - tpr_lower),
          gdp_mu(fpr_lower, 1 - tpr_upper)};
}

// Max over both directions of each audit's tests (the Clopper-Pearson test for eps, the Gaussian-DP
// test for mu).
TestRange audit_range(const StoredAudit& audit) {
  const double alpha = 1 - audit.confidence;
  TestRange range;
  for (const auto& direction : audit.directions) {
    const TestRange eps = test_range(direction.clopper_pearson, audit.audited_delta, alpha);
    const TestRange mu = test_range(direction.gaussian_dp, audit.audited_delta, alpha);
    range.eps_upper = std::max(range.eps_upper, eps.eps_upper);
    range.mu_lower = std::max(range.mu_lower, mu.mu_lower);
    range.mu_upper = std::max(range.mu_upper, mu.mu_upper);
  }
  return range;
}

// Why B's audit shows more privacy loss than A's ("" when it does not).
std::string worse_reason(const AuditComparison& c) {
  if (c.eps_lb_b > c.claimed_epsilon_a && !(c.eps_lb_a > c.claimed_epsilon_a))
    return fmt::format("B's eps_lb {:.4g} violates A's claim eps {:g}", c.eps_lb_b, c.claimed_epsilon_a);
  if (c.mu_lower_b > c.mu_upper_a)
    return fmt::format("B's Gaussian-DP mu >= {:.4g} is above the {:.4g} A's tests allow", c.mu_lower_b, c.mu_upper_a);
  if (c.eps_lb_b > c.eps_upper_a)
    return fmt::format("B's eps_lb {:.4g} is above the {:.4g} A's tests allow", c.eps_lb_b, c.eps_upper_a);
  return "";
}

// "algorithm construction", and the parameters asked for when there are any: how messages name an audit.
std::string audit_label(const StoredAudit& audit) {
  std::string label = audit.algorithm + " " + audit.construction;
  if (const auto params = audit.asked.value("params", nlohmann::json::object()); !params.empty())
    label = fmt::format("{} {}", label, params.dump());
  return label;
}

// Which audit this is: the algorithm and what was asked of it (parameters, data, budget), the neighbours and
// the score; not the seed or the run count, which a gate may change. A suite audits one algorithm several
// ways (baseline.dp_gauss_1 at its defaults and on its sharp worst case), so the label alone would pair them
// wrongly.
std::string audit_identity(const StoredAudit& audit) {
  const nlohmann::json identity = {
      audit.algorithm, audit.asked, {audit.model, audit.n, audit.d, audit.k}, audit.construction, audit.score,
  };
  return identity.dump();
}

nlohmann::json read_audits(const std::filesystem::path& file) {
  std::ifstream in(file);
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InvalidArgument(fmt::format("{}: not an audits.json written by dpbounds ({})", file.string(), e.what()));
  }
}

// ---- text ---------------------------------------------------------------------------------------------

std::set<std::string> varying_error_params(const std::vector<ErrorComparison>& errors) {
  std::vector<const CellParams*> cells;
  for (const auto& e : errors) cells.push_back(&e.cell_params);
  return varying_params(cells);
}

// Widths of the table's text columns: the longest entry (or heading) of each.
struct ColumnWidths {
  std::size_t cell = 4, algorithm = 9, metric = 6;
};

ColumnWidths column_widths(const std::vector<ErrorComparison>& errors, const std::set<std::string>& varying) {
  ColumnWidths w;
  for (const auto& e : errors) {
    w.cell = std::max(w.cell, cell_label(e.cell_params, varying).size());
    w.algorithm = std::max(w.algorithm, e.algorithm.size());
    w.metric = std::max(w.metric, e.metric.size());
  }
  return w;
}

std::string error_line(const ErrorComparison& e, const std::set<std::string>& varying, const ColumnWidths& w) {
  return fmt::format("{:<{}}  {:<{}}  {:<{}}  {:>4}/{:<4} {:>11.4g} {:>11.4g} {:>7.3f} {:>9.3g} {:>9.3g}  {}\n",
                     cell_label(e.cell_params, varying), w.cell, e.algorithm, w.algorithm, e.metric, w.metric, e.trials_a,
                     e.trials_b, e.mean_a, e.mean_b, e.test.rank_biserial, e.test.p_two_sided, e.p_adjusted,
                     to_string(e.change));
}

std::string audit_line(const AuditComparison& a) {
  return fmt::format("{:<36} {:<10} claim eps {:<8g} eps_lb {:.4g} ({}) -> {:.4g} ({}), mu <= {:.4g} -> mu >= {:.4g}  {}{}\n",
                     a.algorithm, a.neighbours, a.claimed_epsilon_a, a.eps_lb_a, a.verdict_a, a.eps_lb_b,
                     a.verdict_b, a.mu_upper_a, a.mu_lower_b, to_string(a.change),
                     a.reason.empty() ? "" : ": " + a.reason);
}

// JSON has no infinity: an unbounded eps_lb is written as null, as audit_report.cpp does.
nlohmann::json number(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

}  // namespace

RankTest mann_whitney(const std::vector<double>& a, const std::vector<double>& b) {
  require_sample(a, "A");
  require_sample(b, "B");
  std::vector<double> pooled(a);
  pooled.insert(pooled.end(), b.begin(), b.end());
  const PooledRanks ranked = mid_ranks(pooled);
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size()), total = na + nb;
  const double rank_sum_b = std::accumulate(ranked.ranks.begin() + static_cast<std::ptrdiff_t>(a.size()), ranked.ranks.end(), 0.0);
  RankTest test;
  test.u_b = rank_sum_b - nb * (nb + 1) / 2;
  test.rank_biserial = 2 * test.u_b / (na * nb) - 1;
  // Var U = n_A n_B / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))), the exact variance under H0 given ties.
  const double variance = na * nb / 12 * ((total + 1) - ranked.tie_term / (total * (total - 1)));
  const double shift = test.u_b - na * nb / 2;
  if (!(variance > 0)) return test;  // every value tied: no evidence either way (z = 0, p = 1)
  const double corrected = std::max(0.0, std::abs(shift) - kContinuityCorrection);
  test.z = std::copysign(corrected / std::sqrt(variance), shift);
  test.p_two_sided = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(boost::math::normal_distribution<>(), std::abs(test.z))));
  return test;
}

std::vector<double> holm_adjust(const std::vector<double>& p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return p[i] < p[j]; });
  std::vector<double> adjusted(p.size());
  double running_max = 0;
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const double factor = static_cast<double>(p.size() - rank);
    running_max = std::max(running_max, std::min(1.0, factor * p[order[rank]]));
    adjusted[order[rank]] = running_max;
  }
  return adjusted;
}

std::string to_string(Change change) {
  switch (change) {
    case Change::none: return "-";
    case Change::worse: return "WORSE";
    case Change::better: return "better";
  }
  return "?";
}

bool Comparison::has_worse_change() const {
  const auto is_worse = [](const auto& c) { return c.change == Change::worse; };
  return std::any_of(errors.begin(), errors.end(), is_worse) || std::any_of(audits.begin(), audits.end(), is_worse);
}

bool Comparison::worse() const { return has_worse_change() || !unmatched.empty(); }

Comparison compare_results(const ResultSet& a, const ResultSet& b, const CompareOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1))
    throw InvalidArgument(fmt::format("--alpha {} is not a significance level: choose a number in (0, 1)", options.alpha));
  const auto values_a = values_by_cell(a, label_maps(options.maps, labels_of(a), labels_of(b)));
  const auto values_b = values_by_cell(b);
  std::vector<const CellKey*> shared_cells, missing_cells;
  for (const auto& [key, metrics] : values_a) (values_b.count(key) ? shared_cells : missing_cells).push_back(&key);
  if (shared_cells.empty())
    throw InvalidArgument(fmt::format(
        "runs '{}' and '{}' share no (cell, algorithm): cells are matched by their parameters, algorithms by "
        "their labels",
        a.experiment, b.experiment));
  std::set<std::string> shared_metrics;
  const auto metrics_b = metric_names(values_b);
  for (const auto& metric : metric_names(values_a))
    if (metrics_b.count(metric)) shared_metrics.insert(metric);

  Comparison comparison;
  comparison.alpha = options.alpha;
  std::vector<const CellParams*> cells;
  for (const auto& [key, metrics] : values_a) cells.push_back(&key.first);
  const auto varying = varying_params(cells);
  for (const CellKey* key : missing_cells)
    comparison.unmatched.push_back(fmt::format("({}) {}", cell_label(key->first, varying), key->second));
  for (const auto& metric : chosen_metrics(shared_metrics, options.metrics))
    for (const CellKey* key : shared_cells) {
      const auto sample_a = values_a.at(*key).find(metric), sample_b = values_b.at(*key).find(metric);
      if (sample_a == values_a.at(*key).end() || sample_b == values_b.at(*key).end()) continue;
      ErrorComparison e;
      e.cell_params = key->first;
      e.algorithm = key->second;
      e.metric = metric;
      e.trials_a = sample_a->second.size();
      e.trials_b = sample_b->second.size();
      e.mean_a = sample_mean(sample_a->second);
      e.mean_b = sample_mean(sample_b->second);
      e.test = mann_whitney(sample_a->second, sample_b->second);
      comparison.errors.push_back(std::move(e));
    }

  std::vector<double> p;
  for (const auto& e : comparison.errors) p.push_back(e.test.p_two_sided);
  const auto adjusted = holm_adjust(p);
  for (std::size_t i = 0; i < comparison.errors.size(); ++i) {
    auto& e = comparison.errors[i];
    e.p_adjusted = adjusted[i];
    // Two-sided test at the family level; the sign of z says which way a rejected comparison moved.
    if (e.p_adjusted <= options.alpha) e.change = e.test.z > 0 ? Change::worse : Change::better;
  }
  return comparison;
}

std::vector<AuditComparison> compare_audits(const nlohmann::json& a, const nlohmann::json& b,
                                            std::vector<std::string>& unmatched) {
  const auto read = [](const nlohmann::json& audits, const char* which) {
    std::vector<StoredAudit> stored;
    try {
      for (const auto& entry : audits) stored.push_back(stored_audit(entry));
    } catch (const nlohmann::json::exception& e) {
      throw InvalidArgument(fmt::format("the audits of {} are not an audits.json written by dpbounds ({})", which,
                                        e.what()));
    }
    return stored;
  };
  const std::vector<StoredAudit> stored_a = read(a, "A"), stored_b = read(b, "B");
  std::map<std::string, const StoredAudit*> audits_b;
  for (const auto& audit : stored_b) audits_b.emplace(audit_identity(audit), &audit);
  std::vector<AuditComparison> result;
  for (const auto& audit_a : stored_a) {
    const auto match = audits_b.find(audit_identity(audit_a));
    if (match == audits_b.end()) {
      unmatched.push_back("audit " + audit_label(audit_a));
      continue;
    }
    const StoredAudit& audit_b = *match->second;
    AuditComparison c;
    c.algorithm = audit_a.algorithm;
    c.neighbours = audit_a.construction;
    c.claimed_epsilon_a = audit_a.audited_epsilon;
    c.eps_lb_a = audit_a.epsilon_lower;
    c.eps_lb_b = audit_b.epsilon_lower;
    c.verdict_a = audit_a.verdict;
    c.verdict_b = audit_b.verdict;
    const TestRange range_a = audit_range(audit_a), range_b = audit_range(audit_b);
    c.eps_upper_a = range_a.eps_upper;
    c.mu_upper_a = range_a.mu_upper;
    c.mu_lower_b = range_b.mu_lower;
    // A claim of no privacy (claimed epsilon 0, verdict NOT PRIVATE) promises nothing to violate or lose.
    if (audit_a.claim_scope != "not_private") c.reason = worse_reason(c);
    if (!c.reason.empty()) c.change = Change::worse;
    result.push_back(std::move(c));
  }
  return result;
}

Comparison compare_runs(const std::filesystem::path& a, const std::filesystem::path& b, const CompareOptions& options) {
  const StoredRun run_a = load_latest_run(a), run_b = load_latest_run(b);
  Comparison comparison = compare_results(run_a.results, run_b.results, options);
  const auto audits_a = store_path(a).parent_path() / "audits.json", audits_b = store_path(b).parent_path() / "audits.json";
  if (std::filesystem::is_regular_file(audits_a) && std::filesystem::is_regular_file(audits_b))
    comparison.audits = compare_audits(read_audits(audits_a), read_audits(audits_b), comparison.unmatched);
  else if (std::filesystem::is_regular_file(audits_a))
    comparison.unmatched.push_back(fmt::format("the audits of A ({}): B has no audits.json", audits_a.string()));
  return comparison;
}

std::string to_text(const Comparison& c) {
  const auto varying = varying_error_params(c.errors);
  std::string text = fmt::format(
      "Mann-Whitney U (two-sided, normal approximation with tie correction), Holm-adjusted over {} comparisons, "
      "alpha {:g}\neffect: rank-biserial correlation, > 0 when B's errors are larger\n\n",
      c.errors.size(), c.alpha);
  const auto w = column_widths(c.errors, varying);
  text += fmt::format("{:<{}}  {:<{}}  {:<{}}  {:>9} {:>11} {:>11} {:>7} {:>9} {:>9}  {}\n", "cell", w.cell,
                      "algorithm", w.algorithm, "metric", w.metric, "trials", "mean A", "mean B", "effect", "p",
                      "p (Holm)", "change");
  for (const auto& e : c.errors) text += error_line(e, varying, w);
  if (!c.audits.empty()) {
    text += "\naudits (eps_lb of A -> B against A's claim; the Gaussian-DP mu A's tests allow -> the mu B's show)\n";
    for (const auto& a : c.audits) text += audit_line(a);
  }
  text += "\nsignificant changes\n";
  std::size_t changes = 0;
  for (const auto& e : c.errors)
    if (e.change != Change::none) {
      text += error_line(e, varying, w);
      ++changes;
    }
  for (const auto& a : c.audits)
    if (a.change != Change::none) {
      text += audit_line(a);
      ++changes;
    }
  if (changes == 0) text += "  none\n";
  if (!c.unmatched.empty()) {
    text += fmt::format(
        "\nnot compared: {} of A's (cell, algorithm) pairs and audits have no match in B (a changed argument "
        "changes a label: pair renamed ones with --map OLD=NEW)\n",
        c.unmatched.size());
    for (const auto& what : c.unmatched) text += "  " + what + "\n";
  }
  text += c.has_worse_change()   ? "\nWORSE: B is significantly worse than A\n"
          : !c.unmatched.empty() ? "\nFAILED: B does not hold everything A does; nothing missing was compared\n"
                                 : "\nOK: B is nowhere significantly worse than A\n";
  return text;
}

nlohmann::json to_json(const Comparison& c) {
  nlohmann::json errors = nlohmann::json::array(), audits = nlohmann::json::array();
  for (const auto& e : c.errors)
    errors.push_back({{"cell", e.cell_params},
                      {"algorithm", e.algorithm},
                      {"metric", e.metric},
                      {"trials_a", e.trials_a},
                      {"trials_b", e.trials_b},
                      {"mean_a", e.mean_a},
                      {"mean_b", e.mean_b},
                      {"u_b", e.test.u_b},
                      {"z", e.test.z},
                      {"rank_biserial", e.test.rank_biserial},
                      {"p", e.test.p_two_sided},
                      {"p_holm", e.p_adjusted},
                      {"change", to_string(e.change)}});
  for (const auto& a : c.audits)
    audits.push_back({{"algorithm", a.algorithm},
                      {"neighbours", a.neighbours},
                      {"claimed_epsilon_a", a.claimed_epsilon_a},
                      {"eps_lb_a", number(a.eps_lb_a)},
                      {"eps_lb_b", number(a.eps_lb_b)},
                      {"verdict_a", a.verdict_a},
                      {"verdict_b", a.verdict_b},
                      {"eps_upper_a", number(a.eps_upper_a)},
                      {"mu_upper_a", number(a.mu_upper_a)},
                      {"mu_lower_b", number(a.mu_lower_b)},
                      {"change", to_string(a.change)},
                      {"reason", a.reason}});
  return {{"test", "mann_whitney_u"},
          {"correction", "holm"},
          {"alpha", c.alpha},
          {"worse", c.worse()},
          {"errors", errors},
          {"audits", audits},
          {"unmatched", c.unmatched}};
}

}  // namespace dpb::verify
