#pragma once
// The white-box entry audit (issue 18): one ledger entry at a time. The composed audit bounds the loss of the
// whole output; here each mechanism's release is audited against the cost the accountant charges that entry.
// Every run on D is paired with a run on D' that is fed D's history (recording_probe.hpp: the same streams, D's
// releases replayed), so at each step the mechanism meets D's and D''s statistic at the same state: Delta, the
// realised change, and two releases, the one drawn on D and the one drawn on D'. A step's score is its release
// projected on Delta, (release - statistic_D) . Delta / |Delta|^2 (0 in mean on D, 1 on D': for Gaussian noise
// the likelihood ratio); one use per run and entry (the first that reads the audited record), so the runs of
// each side are independent. The bounds are the composed audit's (estimators.hpp): eps_lb above the entry's eps
// means the accountant charges that mechanism less than its release shows (a wrong formula, or noise or a
// statistic other than the ones declared).
#include <limits>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/models/model.hpp"
#include "verify/audit/audit_spec.hpp"
#include "verify/audit/neighbours.hpp"

namespace dpb::verify {

struct EntryAudit {
  std::string step;       // the ledger entry
  std::string mechanism;  // its law
  long runs = 0;          // runs in which a use of it read the audited record (per side)
  double shift = 0;       // the largest realised change |Delta| over its declared sensitivity
  double claimed_epsilon = 0, claimed_delta = 0;  // what the accountant charges one use (entry_cost)
  double epsilon_lower = 0;  // the bound: Clopper–Pearson, or the Gaussian-DP fit for a Gaussian entry
  std::string bound;
  // A Gaussian entry: the mu the GDP composition charges one use (alg::entry_gdp_mu), and the fit's lower bound
  // on the mu its releases show; NaN otherwise. Sharper than eps where an entry's per-use (eps, delta) is a thin
  // share of a claim composed as GDP (the noisy power method's steps).
  double claimed_mu = std::numeric_limits<double>::quiet_NaN();
  double mu_lower = std::numeric_limits<double>::quiet_NaN();
  double confidence = 0;
  bool exceeds() const {
    return epsilon_lower > claimed_epsilon * (1 + 1e-9) || mu_lower > claimed_mu * (1 + 1e-9);
  }
};

struct EntryAuditReport {
  std::vector<EntryAudit> entries;     // entries audited, in the order the run first used them
  std::vector<std::string> unaudited;  // entries it cannot audit alone, each with why
  long runs = 0;                       // paired runs
  bool fits() const;                   // no entry's release shows more than its cost
};

// Audits every additive entry (Gaussian, Laplace) of `estimator`'s runs on `pair` (D and D'), `runs` paired runs
// (streams "entry runs"; the entries are named by 20 runs on each of D and D', streams "entry steps"), each against
// its replace-one cost. The bounds hold at spec.confidence for all entries together (Bonferroni over the entries
// and the two bounds of each). Not audited, and listed with why: an entry shown as anything but the mechanism's own
// additive draw, one charged through a secret order (amplification by shuffling: a step seen alone is not what its
// cost covers), one whose uses are charged different costs. Throws dpb::InvalidArgument when
// runs < kMinScoresPerDataset.
EntryAuditReport audit_entries(const AuditSpec& spec, const alg::AlgorithmEntry& entry,
                               const alg::Estimator& estimator, const NeighbourPair& pair, int k,
                               const core::Model& model, long runs);

}  // namespace dpb::verify
