#pragma once
// The privacy auditor (DESIGN.md §5 "Privacy audit"): runs a registered algorithm many times on two
// neighbouring datasets, scores every output and bounds the privacy loss from below. VIOLATION when
// the bound exceeds the claimed epsilon.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/mechanisms/accountant.hpp"

#include "algorithms/privacy.hpp"
#include "algorithms/registry.hpp"
#include "verify/audit/audit_spec.hpp"
#include "verify/audit/entry_audit.hpp"
#include "verify/audit/noise_probe.hpp"
#include "verify/audit/estimators.hpp"
#include "verify/audit/neighbour_search.hpp"
#include "verify/audit/neighbours.hpp"

namespace dpb::verify {

enum class AuditVerdict {
  pass,         // the lower bound does not exceed the claimed epsilon (which proves nothing either way)
  violation,    // the lower bound exceeds the claimed epsilon at the stated confidence
  not_private,  // the algorithm claims no privacy: the numbers are reported, nothing is audited
};

struct AuditResult {
  AuditSpec spec;  // as run: k is set
  alg::PrivacyClaim claim;  // the claim the algorithm makes for this input
  // What the replace-one audit tests: the claim's (eps, delta), or for an add/remove claim, by group
  // privacy over the two steps of a replacement, (2 eps, (1 + e^eps) delta).
  double audited_epsilon = 0, audited_delta = 0;
  std::string neighbours;                             // NeighbourPair::description
  // neighbours: search (neighbour_search.hpp): every pilot (a candidate pair scored one way), best first; the
  // audit ran on the first. Empty otherwise.
  std::vector<SearchTrial> search;
  std::size_t search_candidates = 0;  // candidate pairs the algorithm accepted
  long search_runs = 0;               // mechanism runs the pilots spent, both sides
  NeighbourKind construction = NeighbourKind::fresh;  // the concrete kind used
  double canary_norm = 0;
  std::string score;  // the score used
  // The verdict's confidence: spec.confidence, or an adaptive audit's look's share of it. Where the Gaussian-DP
  // fit joins the verdict, each of its two bounds is computed at half the error (loss.confidence).
  double confidence = 0;
  PrivacyLossEstimate loss;
  bool gaussian_ledger = false;  // every entry of the first run's ledger is Gaussian (shuffled ones: unamplified)
  // The verdict's lower bound: Clopper–Pearson, joined by the Gaussian-DP fit where the ledger says every
  // mechanism the run used is Gaussian (Nasr et al. 2023): then the claim is at least the GDP composition
  // of the ledger, whose trade-off curve bounds every test, so mu_lower above the ledger's mu is a
  // violation. Elsewhere the fit is reported but never used (a histogram's trade-off is not Gaussian).
  bool gdp_fit_decides() const { return gaussian_ledger && loss.gdp_epsilon_lower > loss.epsilon_lower; }
  double epsilon_lower() const { return gdp_fit_decides() ? loss.gdp_epsilon_lower : loss.epsilon_lower; }
  std::string bound() const { return gdp_fit_decides() ? "Gaussian-DP fit" : "Clopper-Pearson"; }
  double tightness() const { return audited_epsilon > 0 ? epsilon_lower() / audited_epsilon : 0; }
  long runs_per_side = 0;  // scored runs on each of D and D' (spec.trials, or what the time budget allowed)
  long runs = 0;           // mechanism runs, both datasets (and the first run and the reference) together
  double runs_per_second = 0;
  AuditVerdict verdict = AuditVerdict::pass;
  std::string interpretation;  // what this verdict shows, in words (claim scope x neighbour kind)
  // The ledger of the first run on D (algorithms/mechanisms/ledger.hpp): what the mechanisms spent, by the
  // accountant, at the claim's delta; a mutant's shows its break here.
  std::vector<std::string> ledger;
  alg::Spend spent;
  // The noise probe (noise_probe.hpp) beside the audit: whether the noise each ledger entry drew follows the law
  // and scale it declares, on the model's data (streams of its own; not for a claim of no privacy).
  std::vector<NoiseCheck> noise_checks;
  std::vector<std::string> noise_unchecked;  // what it could not test, in words (selections; a refused input)
  std::size_t noise_runs = 0;
  // per_entry (entry_audit.hpp): every additive entry's releases audited on their own against its cost.
  std::optional<EntryAuditReport> entry_audit;
  bool entries_fit() const { return !entry_audit || entry_audit->fits(); }
  bool noise_fits() const {
    return std::all_of(noise_checks.begin(), noise_checks.end(), [](const NoiseCheck& c) { return c.problem.empty(); });
  }
};

// Audits spec.algorithm from `registry` (a test or the mutants can pass their own). Throws
// dpb::InvalidArgument on an invalid spec (see validate(AuditSpec)), an unknown algorithm, or when
// the algorithm rejects the input.
AuditResult run_audit(const AuditSpec& spec, const alg::Registry& registry);
// The same with the built-in algorithms (alg::algorithm_registry()).
AuditResult run_audit(const AuditSpec& spec);

std::string to_string(AuditVerdict verdict);  // "PASS", "VIOLATION", "NOT PRIVATE"

// An adaptive audit looks at its bound after every batch and may stop at any look, so a false violation has as
// many chances as there are looks. Half of the allowed error 1 - confidence is spread over the looks that can
// stop early (look j = 1, 2, ...: the confidence its bounds are computed at), the other half kept for the final
// look, when the time budget ends the audit: by the union bound every verdict holds at `confidence`.
double adaptive_look_confidence(double confidence, int look);
double adaptive_final_confidence(double confidence);

// The model an audit draws its data from: spec.model with spec.model_params, d (and r = k, or 1 when k is
// unset, for spiked models) filled in unless given, its random structure from the audit's model stream.
std::unique_ptr<core::Model> audit_model(const AuditSpec& spec);

}  // namespace dpb::verify
