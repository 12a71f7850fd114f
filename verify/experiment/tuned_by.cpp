#include "verify/experiment/tuned_by.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"

namespace dpb::verify {

void use_selected_candidate(ExperimentSpec& spec, const AlgorithmSpec& selected) {
  const auto same_id = [&](const AlgorithmSpec& a) { return a.id == selected.id; };
  const auto listed = std::count_if(spec.algorithms.begin(), spec.algorithms.end(), same_id);
  if (listed == 0) return;  // --only left the tuned algorithm out: nothing to replace
  if (listed != 1)
    throw InvalidArgument(fmt::format("{}: tuned by {}, which selects {}, so it must list {} once, not {} times",
                                      spec.name, spec.tuned_by, selected.label, selected.id, listed));
  auto placeholder = std::find_if(spec.algorithms.begin(), spec.algorithms.end(), same_id);
  const std::string old_label = placeholder->label;
  const std::string display_name = placeholder->name;
  *placeholder = selected;
  placeholder->name = display_name;
  for (auto& check : spec.checks) {
    if (check.algorithm == old_label) check.algorithm = selected.label;
    if (check.against == old_label) check.against = selected.label;
  }
  auto& names = spec.report.algorithm_names;
  if (const auto it = names.find(old_label); it != names.end()) {
    names.erase(it);
    if (!display_name.empty()) names[selected.label] = display_name;
  }
}

void check_tuning_order(const std::vector<ExperimentSpec>& experiments) {
  for (std::size_t i = 0; i < experiments.size(); ++i) {
    const std::string& tuning = experiments[i].tuned_by;
    if (tuning.empty()) continue;
    const auto earlier = std::find_if(experiments.begin(), experiments.begin() + static_cast<std::ptrdiff_t>(i),
                                      [&](const ExperimentSpec& e) { return e.name == tuning; });
    if (earlier == experiments.begin() + static_cast<std::ptrdiff_t>(i))
      throw InvalidArgument(fmt::format("{} is tuned by {}, which does not run before it; list {} earlier", experiments[i].name,
                                        tuning, tuning));
    if (!earlier->report.selection)
      throw InvalidArgument(fmt::format("{} is tuned by {}, whose report selects nothing (it needs `report: {{ select: "
                                        "{{ metric: M }} }}`)",
                                        experiments[i].name, tuning));
  }
}

}  // namespace dpb::verify
