#pragma once
// `--set path=value`: an edit of the experiment's YAML tree before validation. The path is dotted
// map keys ("grid.n", "model.lambda", "privacy.epsilon"); the value is YAML ("[1000, 2000]", "4",
// "{ C2: 8 }"). Missing maps on the path are created, so a new grid axis can be added.
#include <yaml-cpp/yaml.h>

#include <string>

#include "verify/experiment/yaml_source.hpp"

namespace dpb::verify {

// Applies one assignment to `root` and records the new node in `source`, so that a validation error
// in it names the assignment. Throws dpb::InvalidArgument for a malformed assignment, or a path that
// runs through a non-map node.
void apply_set(YAML::Node root, const std::string& assignment, YamlSource& source);

}  // namespace dpb::verify
