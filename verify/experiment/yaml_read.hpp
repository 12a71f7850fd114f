#pragma once
// Typed reads of YAML nodes with file:line:column errors: the building blocks of the experiment and
// suite parsers.
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "core/params.hpp"
#include "verify/experiment/yaml_source.hpp"

namespace dpb::verify {

class YamlReader {
 public:
  explicit YamlReader(const YamlSource& source) : source_(source) {}

  const YamlSource& source() const { return source_; }
  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const { source_.fail(node, message); }

  // Fails unless `node` is a map whose keys are all in `allowed` (an unknown key names the nearest).
  void require_map(const YAML::Node& node, const std::string& what, const std::vector<std::string>& allowed) const;
  void require_sequence(const YAML::Node& node, const std::string& what) const;

  std::string text(const YAML::Node& node, const std::string& what) const;
  double number(const YAML::Node& node, const std::string& what) const;
  // An integer in [min, max].
  long long integer(const YAML::Node& node, const std::string& what, long long min, long long max) const;
  bool boolean(const YAML::Node& node, const std::string& what) const;
  // A list of numbers; a single number reads as a list of one.
  std::vector<double> numbers(const YAML::Node& node, const std::string& what) const;
  std::vector<std::string> texts(const YAML::Node& node, const std::string& what) const;
  // A parameter value: a number, a list of numbers, or a name.
  core::ParamValue param_value(const YAML::Node& node, const std::string& what) const;

 private:
  const YamlSource& source_;
};

}  // namespace dpb::verify
