#pragma once
// How close the audits come to the claims they test: per real algorithm, the best eps_lb / eps over its
// audits, and the median over the Gaussian-based algorithms with worst-case claims. There the Gaussian-DP
// fit can reach the claim, so a low share means the audit lacks power (or the claim has slack the
// calibration put there), not a bound the neighbours cannot reach: a claim made only under the model's
// assumptions (cai2024) sets its noise for bounds that fresh draws from the model come near with
// vanishing probability, so its share is reported but kept out of the median. The textbook mechanisms
// (AlgorithmEntry::calibration_target) are reported apart: their tightness is the auditor's own.
#include <string>
#include <vector>

#include "verify/audit/auditor.hpp"

namespace dpb::verify {

struct AlgorithmTightness {
  std::string algorithm;
  double tightness = 0;           // the largest eps_lb / audited eps over its audits
  bool gaussian = false;          // one of them tested a worst-case claim on an all-Gaussian ledger
  double gaussian_tightness = 0;  // the largest share over those
  bool model_scope = false;       // one of them tested a claim made under the model on an all-Gaussian ledger
};

struct TightnessSummary {
  std::vector<AlgorithmTightness> algorithms;  // real algorithms with a claim, in first-audit order
  std::vector<AlgorithmTightness> calibration;  // the textbook mechanisms, in first-audit order
  std::size_t gaussian = 0;                    // Gaussian-based with worst-case claims: the median's count
  std::size_t model_scope = 0;                 // Gaussian-based with claims made only under the model, left out
  double gaussian_median = 0;                  // median tightness over the former (0 when there are none)
};

// Only audits expected to PASS count: mutants (they exist to be flagged, or their ledger does) and
// algorithms that claim no privacy are left out.
TightnessSummary summarize_tightness(const std::vector<const AuditResult*>& audits,
                                     const alg::Registry& registry = alg::algorithm_registry());

// "median eps_lb / eps over the 7 Gaussian-based algorithms with worst-case claims: 0.53 (the best audit of
// each; 5 claims made only under the model left out); the auditor on the textbook mechanisms: 0.93
// (baseline.gaussian_mean), 0.99 (baseline.laplace_mean)", either part only when it has algorithms, or "".
std::string describe(const TightnessSummary& summary);

}  // namespace dpb::verify
