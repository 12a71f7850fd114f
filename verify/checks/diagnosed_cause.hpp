#pragma once
// Why an algorithm's estimates are no better than chance, in its own words: the diagnostic counters its
// trials recorded (TrialRow::diagnostics). A verdict names this cause instead of blaming the theorem's
// unspecified constants (observed: dugler2026's algorithms at chance because PRIVRANGE returned BOTTOM at
// every step, every step skipped).
#include <set>
#include <string>

#include "verify/store/results.hpp"

namespace dpb::verify {

// Over the trials of `algorithm` in `cells`: the share of trials releasing BOTTOM (a counter named
// "bottom", any prefix) and the share of steps skipped ("skipped_steps" over "steps", with the counters
// that say why, e.g. "bottom_ranges"), where either is at least half; and steps too short to leave the
// random start ("step_size_sum" times the cell's gap below 2 on average). "" when the diagnostics show none.
std::string diagnosed_cause(const ResultSet& results, const std::string& algorithm, const std::set<std::size_t>& cells);

}  // namespace dpb::verify
