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
#include "verify/trial_input.hpp"

namespace dpb::verify {
namespace {

constexpr const char* kRole = "entry D";

bool additive(alg::Mechanism m) {
  return m == alg::Mechanism::gaussian || m == alg::Mechanism::shuffled_gaussian || m == alg::Mechanism::laplace;
}

// Per run: for each entry (by its index in `steps`), the two scores of its first use that read the record, and
// the realised change over the declared sensitivity; NaN where no use did.
struct Use {
  double on_d, on_d_prime, shift;
};

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
  const alg::Neighbours neighbours = estimator.claim(in_d).neighbours;

  // The entries, named in the order the runs first use them, are learnt from the runs: each run returns
  // (entry index, score on D, score on D', shift) per used entry, indices into a list every run extends alike
  // (the step names of one run on D, which the first pass below reads).
  core::Rng first_rng = audit_stream(spec, 0, kRole);
  std::vector<std::string> steps;
  std::map<std::string, alg::LedgerEntry> by_step;
  EntryAuditReport report;
  for (const Observation& o : run_recorded(estimator, in_d, first_rng)) {
    if (by_step.count(o.entry.step)) continue;
    by_step.emplace(o.entry.step, o.entry);
    const alg::EntryCost cost = alg::entry_cost(o.entry, neighbours);
    if (!additive(o.entry.mechanism) || o.kind != alg::ProbedRelease::drawn)
      report.unaudited.push_back(fmt::format("'{}' ({}): not an additive release; the composed audit covers it",
                                             o.entry.step, alg::to_string(o.entry.mechanism)));
    else if (cost.needs_secret_order)
      report.unaudited.push_back(fmt::format("'{}': charged through a secret order (shuffling); a step seen alone "
                                             "is not what its cost covers",
                                             o.entry.step));
    else
      steps.push_back(o.entry.step);
  }
  const std::size_t count = steps.size();
  const auto rows = ranks::spread(std::size_t(runs), [&](std::size_t r) {
    core::Rng rng = audit_stream(spec, r, kRole), rng_prime = rng;  // the same streams: the same history
    const std::vector<Observation> on_d = run_recorded(estimator, in_d, rng);
    const std::vector<Observation> on_d_prime = run_recorded(estimator, in_d_prime, rng_prime, &on_d);
    std::vector<double> row(3 * count, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < std::min(on_d.size(), on_d_prime.size()); ++i) {
      const Observation &a = on_d[i], &b = on_d_prime[i];
      if (a.entry.step != b.entry.step) break;  // the histories part
      const auto slot = std::find(steps.begin(), steps.end(), a.entry.step);
      if (slot == steps.end() || !std::isnan(row[3 * std::size_t(slot - steps.begin())])) continue;
      if (!a.keys.empty() || a.statistic.size() != b.statistic.size()) continue;
      double shift2 = 0, on_d_score = 0, on_d_prime_score = 0;
      for (std::size_t j = 0; j < a.statistic.size(); ++j) {
        const double delta = b.statistic[j] - a.statistic[j];
        shift2 += delta * delta;
        on_d_score += (a.drawn[j] - a.statistic[j]) * delta;
        on_d_prime_score += (b.drawn[j] - a.statistic[j]) * delta;
      }
      if (!(shift2 > 0)) continue;  // this use did not read the record
      const std::size_t s = std::size_t(slot - steps.begin());
      const double declared = std::max(a.entry.sensitivity, b.entry.sensitivity);
      row[3 * s] = on_d_score / shift2;
      row[3 * s + 1] = on_d_prime_score / shift2;
      row[3 * s + 2] = declared > 0 ? realised_change(a.entry, a.statistic, a.keys, b.statistic, b.keys) / declared
                                    : std::numeric_limits<double>::infinity();
    }
    return row;
  });
  report.runs = runs;
  // Bonferroni over the entries: every entry's bound holds at once with probability spec.confidence.
  const double confidence = 1 - (1 - spec.confidence) / double(std::max<std::size_t>(count, 1));
  for (std::size_t s = 0; s < count; ++s) {
    const alg::LedgerEntry& e = by_step.at(steps[s]);
    const alg::EntryCost cost = alg::entry_cost(e, neighbours);
    EntryAudit audit;
    audit.step = steps[s];
    audit.mechanism = alg::to_string(e.mechanism);
    audit.claimed_epsilon = cost.epsilon;
    audit.claimed_delta = cost.delta;
    audit.confidence = confidence;
    std::vector<double> on_d, on_d_prime;
    for (const auto& row : rows) {
      if (std::isnan(row[3 * s])) continue;
      on_d.push_back(row[3 * s]);
      on_d_prime.push_back(row[3 * s + 1]);
      audit.shift = std::max(audit.shift, row[3 * s + 2]);
    }
    audit.runs = long(on_d.size());
    if (audit.runs < kMinScoresPerDataset) {
      report.unaudited.push_back(fmt::format("'{}': read the audited record in {} of {} runs, too few to bound",
                                             audit.step, audit.runs, runs));
      continue;
    }
    const PrivacyLossEstimate loss = estimate_privacy_loss(on_d, on_d_prime, cost.delta, confidence);
    const bool gdp = alg::gaussian_tradeoff(e, neighbours) && loss.gdp_epsilon_lower > loss.epsilon_lower;
    audit.epsilon_lower = gdp ? loss.gdp_epsilon_lower : loss.epsilon_lower;
    audit.bound = gdp ? "Gaussian-DP fit" : "Clopper-Pearson";
    report.entries.push_back(audit);
  }
  return report;
}

}  // namespace dpb::verify
