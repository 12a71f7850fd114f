#include "verify/experiment/yaml_source.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::verify {
namespace {

bool contains(const YAML::Node& tree, const YAML::Node& node) {
  if (tree.is(node)) return true;
  if (tree.IsSequence())
    for (const auto& child : tree)
      if (contains(child, node)) return true;
  if (tree.IsMap())
    for (const auto& entry : tree)
      if (contains(entry.first, node) || contains(entry.second, node)) return true;
  return false;
}

}  // namespace

void YamlSource::add_override(const YAML::Node& value, std::string assignment) {
  overrides_.emplace_back(value, std::move(assignment));
}

std::string YamlSource::where(const YAML::Node& node) const {
  for (const auto& [value, assignment] : overrides_)
    if (contains(value, node)) return fmt::format("--set '{}'", assignment);
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return file_;
  return fmt::format("{}:{}:{}", file_, mark.line + 1, mark.column + 1);
}

void YamlSource::fail(const YAML::Node& node, const std::string& message) const {
  throw ConfigError(fmt::format("{}: {}", where(node), message));
}

}  // namespace dpb::verify
