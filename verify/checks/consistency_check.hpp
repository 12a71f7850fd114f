#pragma once
// The consistency check (DESIGN.md §5), from the theorem library alone: for an upper bound U and a
// lower bound L on the same loss and setting, U.rate / L.rate must stay >= a constant over the
// domain. verify/theorems/gaps.hpp's compare_bounds scales each variable the rates read by step^j,
// |j| <= options.consistency_steps, around the merged example point (counts rounded, >= 1); a point
// counts where both theorems' conditions hold and the variable stays in its natural range
// (probabilities < 1, counts still moving). Along each variable, over the run of such points around
// the base:
//   FAIL  when the ratio is still falling (log-log slope < -tolerance over the last step) at an
//         end of the walk that is not a boundary of the domain: it heads to 0 there, so U < L
//         eventually — the two theorems contradict each other;
//   "gap grows" (reported) when the overall log-log slope of U/L exceeds the tolerance in size:
//         U and L disagree in that variable by more than constants and polylogs.
// PASS when no variable fails. Only axis-parallel directions are explored, and derived parameters
// (V, gamma2, ...) are held at their base values while the variable moves (docs/checks.md).
#include "bounds/theorem.hpp"
#include "verify/checks/check_options.hpp"
#include "verify/checks/check_spec.hpp"

namespace dpb::verify {

// `first` and `second` are check.theorem and check.against, in either order of kind.
Verdict check_consistency(const CheckSpec& check, const bounds::Theorem& first, const bounds::Theorem& second,
                          const CheckOptions& options);

}  // namespace dpb::verify
