#pragma once
// The dominates check (docs/checks.md "dominates"): a paper's qualitative claim that one algorithm's
// error is at or below another's, e.g. cai2024 §6 Fig 1 "ours slightly outperforms DP-Gauss".
// In every grid cell where both algorithms ran (and, with `where`, whose parameters lie in its ranges),
// with m such cells:
//   D = mean(A) - (1 + tolerance) mean(B)
// and a bootstrap percentile interval for D (A's and B's trials resampled independently) at the
// Bonferroni-corrected two-sided level 1 - (1 - confidence) / m, so that the m intervals hold
// together with probability >= confidence.
//   FAIL          when some cell's interval lies above 0: A is significantly above (1 + tol) B there;
//   PASS          when every cell's interval lies at or below 0: A is significantly at or below;
//   INCONCLUSIVE  otherwise (too close to call in some cell), or too few trials in a cell.
#include <cstdint>

#include "verify/checks/check_options.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

// check.algorithm is A, check.against is B (both TrialRow::algorithm labels).
Verdict check_dominates(const ResultSet& results, const CheckSpec& check, std::uint64_t seed,
                        const CheckOptions& options);

}  // namespace dpb::verify
