#include "verify/experiment/yaml_read.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "verify/experiment/suggest.hpp"

namespace dpb::verify {
namespace {

bool is_number(const YAML::Node& node, double& value) {
  if (!node.IsScalar()) return false;
  try {
    value = core::parse_number(node.Scalar(), "");
    return true;
  } catch (const InvalidArgument&) {
    return false;
  }
}

}  // namespace

void YamlReader::require_map(const YAML::Node& node, const std::string& what,
                             const std::vector<std::string>& allowed) const {
  if (!node.IsMap()) fail(node, fmt::format("{} must be a map (key: value)", what));
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (!known) fail(entry.first, fmt::format("unknown key '{}' in {}{}", key, what, suggestion(key, allowed)));
  }
}

void YamlReader::require_sequence(const YAML::Node& node, const std::string& what) const {
  if (!node.IsSequence()) fail(node, fmt::format("{} must be a list", what));
}

std::string YamlReader::text(const YAML::Node& node, const std::string& what) const {
  if (!node.IsScalar()) fail(node, fmt::format("{} must be a single value, not a list or map", what));
  return node.Scalar();
}

double YamlReader::number(const YAML::Node& node, const std::string& what) const {
  double value = 0;
  if (!is_number(node, value)) fail(node, fmt::format("{} must be a finite number", what));
  return value;
}

long long YamlReader::integer(const YAML::Node& node, const std::string& what, long long min, long long max) const {
  const double value = number(node, what);
  if (value != std::floor(value) || value < double(min) || value > double(max))
    fail(node, fmt::format("{} must be an integer in [{}, {}], got {}", what, min, max, node.Scalar()));
  return static_cast<long long>(value);
}

bool YamlReader::boolean(const YAML::Node& node, const std::string& what) const {
  const std::string value = text(node, what);
  if (value == "true") return true;
  if (value == "false") return false;
  fail(node, fmt::format("{} must be true or false, got '{}'", what, value));
}

std::vector<double> YamlReader::numbers(const YAML::Node& node, const std::string& what) const {
  if (node.IsScalar()) return {number(node, what)};
  if (!node.IsSequence() || node.size() == 0) fail(node, fmt::format("{} must be a nonempty list of numbers", what));
  std::vector<double> values;
  for (const auto& item : node) values.push_back(number(item, what));
  return values;
}

std::vector<std::string> YamlReader::texts(const YAML::Node& node, const std::string& what) const {
  if (node.IsScalar()) return {node.Scalar()};
  require_sequence(node, what);
  std::vector<std::string> values;
  for (const auto& item : node) values.push_back(text(item, what));
  return values;
}

core::ParamValue YamlReader::param_value(const YAML::Node& node, const std::string& what) const {
  double value = 0;
  if (is_number(node, value)) return value;
  if (node.IsSequence()) return numbers(node, what);
  return text(node, what);
}

}  // namespace dpb::verify
