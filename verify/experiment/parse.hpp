#pragma once
// Reading an experiment YAML (DESIGN.md §5; the format is documented in docs/experiments.md). Every
// problem is a dpb::ConfigError that starts with file:line:column of the offending node: unknown
// keys, wrong types, unknown algorithm / model / theorem / metric ids (with the nearest name), and
// algorithm or model parameters outside their documented range.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>
#include <vector>

#include "verify/experiment/spec.hpp"
#include "verify/experiment/yaml_source.hpp"

namespace dpb::verify {

// Command-line changes to an experiment, applied in this order: `set` edits the YAML before
// validation ("grid.n=[1000,2000]", "trials=5", "model.lambda=4"), `only` selects algorithms after it
// (see verify/experiment/selection.hpp).
struct ExperimentOverrides {
  std::vector<std::string> set;
  std::vector<std::string> only;
};

// Validates one experiment given as a YAML map (a file's root or a suite's inline entry).
ExperimentSpec parse_experiment(const YAML::Node& root, const YamlSource& source);

// Reads `file`, applies `overrides`, validates. A file that cannot be read or is not YAML is a
// ConfigError too.
ExperimentSpec load_experiment(const std::filesystem::path& file, const ExperimentOverrides& overrides = {});

// `root` with the overrides applied and validated: what a suite does for its inline experiments.
ExperimentSpec experiment_with_overrides(YAML::Node root, YamlSource source, const ExperimentOverrides& overrides);

// Parses a YAML file into a node; ConfigError with file:line:column on a syntax error.
YAML::Node load_yaml_file(const std::filesystem::path& file);

}  // namespace dpb::verify
