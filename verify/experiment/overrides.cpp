#include "verify/experiment/overrides.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::verify {

void apply_set(YAML::Node root, const std::string& assignment, YamlSource& source) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == assignment.size())
    throw InvalidArgument(fmt::format("--set '{}': write path=value, e.g. grid.n=[1000,2000]", assignment));
  YAML::Node value;
  try {
    value = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw InvalidArgument(fmt::format("--set '{}': the value is not YAML: {}", assignment, e.msg));
  }
  std::vector<std::string> keys;
  for (std::size_t start = 0; start <= eq;) {
    const auto dot = std::min(assignment.find('.', start), eq);
    keys.push_back(assignment.substr(start, dot - start));
    if (keys.back().empty()) throw InvalidArgument(fmt::format("--set '{}': empty key in the path", assignment));
    start = dot + 1;
  }
  // Walk by reassignment of the handle: yaml-cpp's operator[] on a map yields the child node itself.
  YAML::Node node = root;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (node.IsDefined() && !node.IsNull() && !node.IsMap())
      throw InvalidArgument(fmt::format("--set '{}': the path runs through a value that is not a map", assignment));
    if (i + 1 == keys.size()) break;
    node.reset(node[keys[i]]);
  }
  node[keys.back()] = value;
  source.add_override(value, assignment);
  // The key is a new node too: an "unknown key" error points at it.
  for (const auto& entry : node)
    if (entry.first.Scalar() == keys.back()) source.add_override(entry.first, assignment);
}

}  // namespace dpb::verify
