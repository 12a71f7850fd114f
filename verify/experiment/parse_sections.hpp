#pragma once
// The experiment parser's sections (internal to verify/experiment/parse*.cpp).
#include <yaml-cpp/yaml.h>

#include "verify/experiment/spec.hpp"
#include "verify/experiment/yaml_read.hpp"

namespace dpb::verify::detail {

// `checks:` against the already parsed algorithms, metrics and grid of `spec`.
std::vector<CheckSpec> parse_checks(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec);
// `data:`: a dataset in place of `model:` (read when the run starts, not here).
DataSpec parse_data(const YAML::Node& node, const YamlReader& read);
// `report:`: table(s) and figure(s).
ReportSpec parse_report(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec);

}  // namespace dpb::verify::detail
