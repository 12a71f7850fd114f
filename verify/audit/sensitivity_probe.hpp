#pragma once
// Sensitivity probes (docs/privacy.md "Sensitivity probes"): a ledger is only as good as the sensitivity
// it is told, so the probe runs an algorithm on neighbouring datasets D and D' and measures, for every
// mechanism entry, the realised change of the pre-noise statistic in the norm the entry declares. The two
// runs share their random streams, and D's releases are replayed into the run on D' (the test-only seam
// alg::LedgerProbe), so every later step sees the same history and each comparison is one the declared
// sensitivity must bound. A realised change above it is a violation naming the pair and the entry.
#include <map>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "verify/audit/audit_spec.hpp"

namespace dpb::verify {

struct SensitivityViolation {
  std::string step;  // the ledger entry
  std::string norm;
  double declared = 0;
  double realised = 0;
  std::string pair;  // which neighbours showed it
};

struct SensitivityProbeReport {
  std::size_t pairs = 0;        // neighbouring pairs tried
  std::size_t comparisons = 0;  // (pair, entry) statistics compared
  // The largest realised / declared ratio seen per entry (step), over every pair.
  std::map<std::string, double> largest_ratio;
  std::vector<SensitivityViolation> violations;  // the largest realised / declared first
  bool not_private = false;  // the claim promises nothing (ClaimScope::not_private): nothing was probed
};

struct SensitivityProbeOptions {
  int random_pairs = 4;  // replacements drawn at random directions and scales (0.1x to 100x the data)
  int search_steps = 6;  // hill-climbing steps on the replacement that came closest to its bound
  std::uint64_t seed = 1;
};

// Probes spec.algorithm (from `registry`) on spec's model, n, d, k and budget: the worst-case constructions
// of the audit (or fresh draws only, for a claim made under the model's assumptions), random replacements,
// then an adversarial search over the replaced record. An algorithm that claims no privacy is not probed
// (report.not_private). Throws dpb::InvalidArgument when the algorithm refuses the input.
SensitivityProbeReport probe_sensitivity(const AuditSpec& spec, const alg::Registry& registry,
                                         const SensitivityProbeOptions& options = {});

// The realised change between two statistics of `entry` in its declared norm (keys, when given, name the
// coordinates; a coordinate missing on one side is 0 there).
double realised_change(const alg::LedgerEntry& entry, const std::vector<double>& a,
                       const std::vector<std::int64_t>& keys_a, const std::vector<double>& b,
                       const std::vector<std::int64_t>& keys_b);

}  // namespace dpb::verify
