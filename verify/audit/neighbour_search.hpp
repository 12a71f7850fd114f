#pragma once
// `neighbours: search`: the neighbours and score chosen by pilot runs, as StatDP (Ding et al. 2018) and
// Delta-Siege (Lokna et al. 2023) do. A worst case written down by hand covers the leaks its author thought of;
// the search tries every construction (neighbours.hpp) at four canary scales, on the model's data and on flat
// data, and scores each candidate's pilot runs with every score that reads the output. Scale is where decision
// boundaries sit (a clip radius, a histogram's bins, a test's threshold), so a leak that shows only on one side
// of one is found without being named. The pilot runs use streams of their own: the audit's runs on the chosen
// pair are fresh, so choosing among many candidates spends none of the audit's confidence.
#include <string>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "algorithms/registry.hpp"
#include "core/models/model.hpp"
#include "verify/audit/audit_spec.hpp"
#include "verify/audit/neighbours.hpp"

namespace dpb::verify {

// A candidate pair's construction: the kind and data (a WorstCase without a reason), and the canary scale.
struct SearchCandidate {
  WorstCase construction;
  double canary_scale = 0;
};

// The canary scales tried, as multiples of the spec's canary_scale: four decades down from "far beyond any clip
// radius" to "inside the data", where every threshold the algorithm applies to a record's size lies.
inline constexpr double kSearchScales[] = {1, 0.1, 0.01, 0.001};
// The pilot's bounds are computed at this confidence: a median-unbiased estimate of what a full audit of the
// candidate would show (a pilot ranks candidates; it proves nothing).
inline constexpr double kSearchConfidence = 0.5;

// The candidates for an audit of `algorithm_id` (its worst case first, at the spec's canary scale, then every
// other construction the spec's n, index, d and k admit, each at kSearchScales, on model and flat data).
std::vector<SearchCandidate> search_candidates(const AuditSpec& spec, const std::string& algorithm_id, int k);

// The search runs in two rounds: every candidate and score on spec.search_trials runs per side, then the
// kSearchFinalists best, and the plain audit's pair and score, again on kSearchConfirmRatio times as many fresh
// runs, which rank them (ties: the plain audit's).
inline constexpr std::size_t kSearchFinalists = 4;
inline constexpr long kSearchConfirmRatio = 4;

// One pilot: a candidate pair scored one way.
struct SearchTrial {
  std::string neighbours;  // NeighbourPair::description
  std::string score;
  double pilot_epsilon = 0;  // Clopper–Pearson at kSearchConfidence, or the Gaussian-DP fit where it would join
  // Where the fit would join: the scores' separation |mean' - mean| / sd, the mu a Gaussian release shows through
  // a linear score, by which the pilots are ranked (eps at a small delta is 0 on a few hundred runs of most pairs;
  // mu still orders them). Else -1: ranked by pilot_epsilon.
  double pilot_mu = -1;
  bool confirmed = false;  // a finalist: these are its second round's
};

struct NeighbourSearch {
  NeighbourPair pair;               // the chosen pair
  std::string score;                // and score
  std::vector<SearchTrial> ranked;  // the finalists by their second round, then every other pilot, best first
  std::size_t candidates = 0;       // candidate pairs the algorithm accepted
  long runs = 0;                    // mechanism runs the search spent, both sides
};

// What a replace-one audit tests of `claim`: its (eps, delta), or for an add/remove claim, by group privacy over
// the two steps of a replacement, (2 eps, (1 + e^eps) delta).
struct AuditedPrivacy {
  double epsilon = 0, delta = 0;
};
AuditedPrivacy audited_privacy(const alg::PrivacyClaim& claim);

// Every entry is Gaussian (a shuffled one counting where the accountant charges it without amplification): the
// Gaussian-DP fit then joins an audit's verdict (auditor.hpp).
bool gaussian_ledger(const alg::Ledger& ledger, alg::Neighbours neighbours);

// Runs spec.search_trials pilot runs per side on every candidate D, D' (streams "search D", "search D'"), scores
// them with spec.score, or with every score that reads the output when none is named (or a learned one is: it is
// fit later, on the chosen pair), confirms the best few and the plain audit's choice on fresh runs and returns
// the pair and score whose confirmation shows the largest loss (ties: the earlier candidate, the worst case first). A candidate the algorithm refuses
// (InvalidArgument) is left out; throws when it refuses every one.
NeighbourSearch search_neighbours(const AuditSpec& spec, const alg::AlgorithmEntry& entry,
                                  const alg::Estimator& estimator, const core::Model& model, int k,
                                  const std::string& algorithm_id);

}  // namespace dpb::verify
