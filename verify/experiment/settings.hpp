#pragma once
// What a run stores next to its rows so that `dpbounds check / table / plot RESULTS` can redo the
// checks and the report without the YAML: the checks, the report settings and the seed of the checks'
// bootstrap, as JSON (ResultStore's runs.settings).
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "verify/experiment/spec.hpp"

namespace dpb::verify {

struct RunSettings {
  std::uint64_t seed = 1;
  std::vector<CheckSpec> checks;
  ReportSpec report;
};

RunSettings settings_of(const ExperimentSpec& spec);
nlohmann::json to_json(const RunSettings& settings);
// Throws dpb::InvalidArgument if `j` is not what to_json wrote.
RunSettings settings_from_json(const nlohmann::json& j);

}  // namespace dpb::verify
