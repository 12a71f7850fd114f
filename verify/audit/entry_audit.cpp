#include "verify/audit/entry_audit.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "verify/audit/estimators.hpp"
#include "verify/audit/recording_probe.hpp"
#include "verify/audit/sensitivity_probe.hpp"
#include "verify/distributed/spread.hpp"
#include "verify/runner/trial_input.hpp"

namespace dpb::verify {
namespace {

// Runs that name the entries (streams of their own): an entry used only on some branches shows in some of them.
constexpr const char* kDiscoveryRole = "entry steps";
constexpr long kDiscoveryRuns = 20;
constexpr const char* kRole = "entry runs";

bool additive(alg::Mechanism m) {
  return m == alg::Mechanism::gaussian || m == alg::Mechanism::shuffled_gaussian || m == alg::Mechanism::laplace;
}

// Every pair of runs is scored against replace-one neighbours, so an entry is charged its replace-one cost (an
// add/remove entry by group privacy).
alg::EntryCost cost_of(const alg::LedgerEntry& e) { return alg::entry_cost(e, alg::Neighbours::replace); }

}  // namespace

bool EntryAuditReport::fits() const {
  return std::none_of(entries.begin(), entries.end(), [](const EntryAudit& e) { return e.exceeds(); });
}

EntryAuditReport audit_entries(const AuditSpec& spec, const alg::AlgorithmEntry& entry,
                               const alg::Estimator& estimator, const NeighbourPair& pair, int k,
                               const core::Model& model, long runs) {
  if (runs < kMinScoresPerDataset)
    throw InvalidArgument(fmt::format("entry audit: runs must be >= {}, got {}", kMinScoresPerDataset, runs));
  const TrialData data_d = trial_data_from_vectors(pair.X), data_d_prime = trial_data_from_vectors(pair.X_prime);
  alg::Input in_d = make_input(entry, data_d, k, spec.privacy, &model.info());
  alg::Input in_d_prime = make_input(entry, data_d_prime, k, spec.privacy, &model.info());
  if (pair.start.size() > 0) in_d.start = in_d_prime.start = &pair.start;

  // The entries, in the order the discovery runs first use them. A step is audited only when every release of it
  // is the mechanism's own additive draw and its cost does not rest on a secret order (dugler2026's tangent noise
  // is shown once drawn and once projected under one name: the projected view is not a draw).
  EntryAuditReport report;
  std::vector<std::string> order;
  std::map<std::string, std::string> excluded;  // step -> why it is not audited
  std::map<std::string, alg::LedgerEntry> first_entry;
  for (long r = 0; r < kDiscoveryRuns; ++r)
    for (const bool prime : {false, true}) {
      core::Rng rng = audit_stream(spec, std::uint64_t(r), kDiscoveryRole);
      for (const Observation& o : run_recorded(estimator, prime ? in_d_prime : in_d, rng)) {
        if (first_entry.emplace(o.entry.step, o.entry).second) order.push_back(o.entry.step);
        if (excluded.count(o.entry.step)) continue;
        if (!additive(o.entry.mechanism) || o.kind != alg::ProbedRelease::drawn)
          excluded[o.entry.step] = fmt::format("({}): not (only) an additive draw; the composed audit covers it",
                                               alg::to_string(o.entry.mechanism));
        else if (cost_of(o.entry).needs_secret_order)
          excluded[o.entry.step] = "charged through a secret order (shuffling); a step seen alone is not what its "
                                   "cost covers";
      }
    }
  std::vector<std::string> steps;
  for (const std::string& step : order) {
    if (excluded.count(step))
      report.unaudited.push_back(fmt::format("'{}' {}", step, excluded.at(step)));
    else
      steps.push_back(step);
  }

  // Per run and audited entry: the scores of its first use that reads the record (one use per run, chosen by the
  // history alone, so each side's runs stay independent), the realised change over the declared sensitivity, and
  // the eps that use is charged; NaN where no use did.
  constexpr std::size_t kSlots = 4;
  const std::size_t count = steps.size();
  const auto rows = ranks::spread(std::size_t(runs), [&](std::size_t r) {
    core::Rng rng = audit_stream(spec, r, kRole), rng_prime = rng;  // the same streams: the same history
    const std::vector<Observation> on_d = run_recorded(estimator, in_d, rng);
    const std::vector<Observation> on_d_prime = run_recorded(estimator, in_d_prime, rng_prime, &on_d);
    std::vector<double> row(kSlots * count, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < std::min(on_d.size(), on_d_prime.size()); ++i) {
      const Observation &a = on_d[i], &b = on_d_prime[i];
      if (a.entry.step != b.entry.step) break;  // the histories part
      const auto slot = std::find(steps.begin(), steps.end(), a.entry.step);
      if (slot == steps.end() || !std::isnan(row[kSlots * std::size_t(slot - steps.begin())])) continue;
      if (a.kind != alg::ProbedRelease::drawn || b.kind != alg::ProbedRelease::drawn || !a.keys.empty() ||
          a.statistic.size() != b.statistic.size())
        continue;
      double shift2 = 0, on_d_score = 0, on_d_prime_score = 0;
      for (std::size_t j = 0; j < a.statistic.size(); ++j) {
        const double delta = b.statistic[j] - a.statistic[j];
        shift2 += delta * delta;
        on_d_score += (a.drawn[j] - a.statistic[j]) * delta;
        on_d_prime_score += (b.drawn[j] - a.statistic[j]) * delta;
      }
      if (!(shift2 > 0)) continue;  // this use did not read the record
      double* use = &row[kSlots * std::size_t(slot - steps.begin())];
      const double declared = std::max(a.entry.sensitivity, b.entry.sensitivity);
      use[0] = on_d_score / shift2;
      use[1] = on_d_prime_score / shift2;
      use[2] = declared > 0 ? realised_change(a.entry, a.statistic, a.keys, b.statistic, b.keys) / declared
                            : std::numeric_limits<double>::infinity();
      use[3] = cost_of(a.entry).epsilon;
    }
    return row;
  });
  report.runs = runs;
  // Bonferroni over the entries and over the two bounds each reports (Clopper–Pearson and the Gaussian-DP fit):
  // every entry's verdict holds at once with probability spec.confidence.
  const double confidence = 1 - (1 - spec.confidence) / double(2 * std::max<std::size_t>(count, 1));
  for (std::size_t s = 0; s < count; ++s) {
    const alg::LedgerEntry& e = first_entry.at(steps[s]);
    const alg::EntryCost cost = cost_of(e);
    EntryAudit audit;
    audit.step = steps[s];
    audit.mechanism = alg::to_string(e.mechanism);
    audit.claimed_epsilon = cost.epsilon;
    audit.claimed_delta = cost.delta;
    audit.confidence = confidence;
    std::vector<double> on_d, on_d_prime;
    bool one_cost = true;
    for (const auto& row : rows) {
      const double* use = &row[kSlots * s];
      if (std::isnan(use[0])) continue;
      on_d.push_back(use[0]);
      on_d_prime.push_back(use[1]);
      audit.shift = std::max(audit.shift, use[2]);
      one_cost = one_cost && std::abs(use[3] - cost.epsilon) <= 1e-9 * std::max(1.0, cost.epsilon);
    }
    audit.runs = long(on_d.size());
    if (!one_cost) {
      report.unaudited.push_back(
          fmt::format("'{}': its uses are charged different costs; pooled, they have no one cost to meet", audit.step));
      continue;
    }
    if (audit.runs < kMinScoresPerDataset) {
      report.unaudited.push_back(fmt::format("'{}': read the audited record in {} of {} runs, too few to bound",
                                             audit.step, audit.runs, runs));
      continue;
    }
    const PrivacyLossEstimate loss = estimate_privacy_loss(on_d, on_d_prime, cost.delta, confidence);
    const bool gdp = alg::gaussian_tradeoff(e, alg::Neighbours::replace) && loss.gdp_epsilon_lower > loss.epsilon_lower;
    audit.epsilon_lower = gdp ? loss.gdp_epsilon_lower : loss.epsilon_lower;
    audit.bound = gdp ? "Gaussian-DP fit" : "Clopper-Pearson";
    audit.claimed_mu = alg::entry_gdp_mu(e, alg::Neighbours::replace);
    if (!std::isnan(audit.claimed_mu)) audit.mu_lower = loss.gdp_mu_lower;
    report.entries.push_back(audit);
  }
  return report;
}

}  // namespace dpb::verify
