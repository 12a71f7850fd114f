#pragma once
// A tiny experiment (two cells, two algorithms, three trials: milliseconds) shared by the
// experiment, runner, store and suite tests, and helpers to parse YAML text.
#include <yaml-cpp/yaml.h>

#include <stdexcept>
#include <string>

#include "verify/experiment/parse.hpp"

namespace dpb::verify::test {

inline const char* const kTinyExperiment = R"(name: tiny
seed: 7
trials: 3
model: { name: spiked_gaussian, d: 5, r: 1, lambda: 4, sigma2: 1 }
grid: { n: [200, 400] }
privacy: { epsilon: 1.0, delta: 1.0e-5 }
algorithms:
  - baseline.nonprivate_pca
  - baseline.dp_gauss_1: { clip_constant: 2 }
metrics: [projector_fro, sin]
)";

// `text` parsed as the file "exp.yaml" with `overrides`.
inline ExperimentSpec parse_text(const std::string& text, const ExperimentOverrides& overrides = {}) {
  return experiment_with_overrides(YAML::Load(text), YamlSource("exp.yaml"), overrides);
}

// The ConfigError / InvalidArgument message parsing `text` gives ("" when it parses).
inline std::string parse_error(const std::string& text, const ExperimentOverrides& overrides = {}) {
  try {
    parse_text(text, overrides);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// kTinyExperiment with its first line that starts with `prefix` replaced by `line`.
inline std::string tiny_with(const std::string& prefix, const std::string& line) {
  std::string text = kTinyExperiment;
  for (std::size_t start = 0; start < text.size(); start = text.find('\n', start) + 1)
    if (text.compare(start, prefix.size(), prefix) == 0) return text.replace(start, text.find('\n', start) - start, line);
  throw std::logic_error("tiny_with: no line starts with " + prefix);
}

}  // namespace dpb::verify::test
