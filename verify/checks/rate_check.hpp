#pragma once
// The rate and slope checks (DESIGN.md §5). Both fit, over the cells, the least-squares slope of
// log R on log(vary), where R = error statistic / theorem rate, with a bootstrap CI over trials.
//   rate  (upper bound): FAIL when the slope is significantly > +tolerance (the error grows faster
//         than the rate); for a lower bound, significantly < -tolerance; `optimal` forbids both sides.
//   slope: the observed log-log slope of the error against the slope the rate predicts at the same
//         points; their difference is that same slope of log R, and both sides are forbidden.
// PASS when the CI lies on the allowed side of every forbidden bound, FAIL when it lies entirely
// beyond one, INCONCLUSIVE when it straddles one.
#include <cstdint>

#include "bounds/theorem.hpp"
#include "verify/checks/check_options.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

// check.kind is "rate" or "slope". Throws Inconclusive when the data cannot support a verdict.
Verdict check_rate_or_slope(const ResultSet& results, const CheckSpec& check, const bounds::Theorem& theorem,
                            std::uint64_t seed, const CheckOptions& options);

}  // namespace dpb::verify
