#pragma once
// `tuned_by: NAME` (dugler2026 App. F.2: "the final sweep plots use the best configuration"): an experiment whose
// algorithm is chosen by a tuning experiment of the same suite. The tuning experiment lists candidates of one
// algorithm and ranks them with `report: select:`; the tuned experiment lists that algorithm once, as a
// placeholder that runs as written when the experiment runs alone.
#include <string>
#include <vector>

#include "verify/experiment/spec.hpp"

namespace dpb::verify {

// Replaces the one algorithm of `spec` whose id is `selected.id` by `selected` (keeping the placeholder's display
// name), and renames the checks and report names that named the placeholder; nothing when `spec` does not list
// that id (--only left it out); dpb::InvalidArgument when it lists the id more than once.
void use_selected_candidate(ExperimentSpec& spec, const AlgorithmSpec& selected);

// dpb::InvalidArgument unless every `tuned_by` of `experiments` names an earlier experiment of the list whose
// report selects (`report: select:`).
void check_tuning_order(const std::vector<ExperimentSpec>& experiments);

}  // namespace dpb::verify
