#pragma once
// Where a YAML node came from, for error messages (DESIGN.md §3 "Errors": file:line:column). Nodes of
// the file report "file:line:column"; nodes spliced in by `--set` report the assignment they came from.
#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

namespace dpb::verify {

class YamlSource {
 public:
  explicit YamlSource(std::string file) : file_(std::move(file)) {}

  // Records that `value` (and everything under it) was given on the command line as `assignment`.
  void add_override(const YAML::Node& value, std::string assignment);

  // "file:line:column" (1-based) of `node`, or "--set 'grid.n=[1,2]'" for an override.
  std::string where(const YAML::Node& node) const;
  const std::string& file() const { return file_; }

  // Throws dpb::ConfigError "<where(node)>: <message>".
  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const;

 private:
  std::string file_;
  std::vector<std::pair<YAML::Node, std::string>> overrides_;
};

}  // namespace dpb::verify
