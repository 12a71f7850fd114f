#pragma once
// The exponent check (docs/checks.md "exponent"): a paper's scaling claim with no theorem behind the
// constants, "the error behaves like x^s over the grid", e.g. liu2022 §5 "DP-PCA's error vanishes as sigma
// -> 0" (s = 1: error / sigma stays bounded) or "Private Oja's plateaus" (s = 0). It is the slope check
// against the power law x^s: the least-squares slope of log(mean error) on log(vary), with a bootstrap
// CI over trials, must lie within [s - tolerance, s + tolerance] (side both), above s - tolerance
// (at_least: error / x^s stays bounded as x -> 0) or below s + tolerance (at_most: bounded as x grows).
//   PASS          when the CI lies inside that range;
//   FAIL          when it lies entirely outside;
//   INCONCLUSIVE  when it straddles an end, or the data cannot support a slope.
#include <cstdint>

#include "verify/checks/check_options.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

// check.kind is "exponent", check.exponent is s. Throws Inconclusive when the data cannot support a verdict.
Verdict check_exponent(const ResultSet& results, const CheckSpec& check, std::uint64_t seed,
                       const CheckOptions& options);

}  // namespace dpb::verify
