#include "verify/experiment/selection.hpp"

#include <fnmatch.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/errors.hpp"

namespace dpb::verify {

AlgorithmPattern parse_pattern(const std::string& text) {
  AlgorithmPattern pattern;
  const auto open = text.find('[');
  pattern.glob = text.substr(0, open);
  if (pattern.glob.empty()) throw InvalidArgument(fmt::format("--only '{}': the pattern needs an algorithm id or glob", text));
  if (open == std::string::npos) return pattern;
  if (text.back() != ']' || open + 2 >= text.size())
    throw InvalidArgument(fmt::format("--only '{}': write id[name=value,...]", text));
  const std::string inside = text.substr(open + 1, text.size() - open - 2);
  // Split on commas outside list brackets: [lambdas=[4,2],C2=4] is two assignments.
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= inside.size(); ++i) {
    if (i < inside.size() && inside[i] == '[') ++depth;
    if (i < inside.size() && inside[i] == ']') --depth;
    if (i == inside.size() || (inside[i] == ',' && depth == 0)) {
      const auto [name, value] = core::ParamMap::parse_assignment(inside.substr(start, i - start));
      pattern.required.set(name, value);
      start = i + 1;
    }
  }
  return pattern;
}

bool matches(const AlgorithmPattern& pattern, const AlgorithmSpec& algorithm) {
  if (::fnmatch(pattern.glob.c_str(), algorithm.id.c_str(), 0) != 0) return false;
  for (const auto& [name, value] : pattern.required.values()) {
    const auto it = algorithm.resolved.values().find(name);
    if (it == algorithm.resolved.values().end() || it->second != value) return false;
  }
  return true;
}

std::vector<bool> keep_selected(ExperimentSpec& spec, const std::vector<AlgorithmPattern>& patterns) {
  std::vector<bool> used(patterns.size(), false);
  if (patterns.empty()) return used;
  std::erase_if(spec.algorithms, [&](const AlgorithmSpec& a) {
    bool kept = false;
    for (std::size_t i = 0; i < patterns.size(); ++i)
      if (matches(patterns[i], a)) kept = used[i] = true;
    return !kept;
  });
  std::erase_if(spec.checks, [&](const CheckSpec& check) {
    return !check.algorithm.empty() && std::none_of(spec.algorithms.begin(), spec.algorithms.end(),
                                                    [&](const auto& a) { return a.label == check.algorithm; });
  });
  return used;
}

void select_algorithms(ExperimentSpec& spec, const std::vector<std::string>& patterns) {
  std::vector<std::string> labels;
  for (const auto& a : spec.algorithms) labels.push_back(a.label);
  std::vector<AlgorithmPattern> parsed;
  for (const auto& text : patterns) parsed.push_back(parse_pattern(text));
  const std::vector<bool> used = keep_selected(spec, parsed);
  for (std::size_t i = 0; i < used.size(); ++i)
    if (!used[i])
      throw InvalidArgument(fmt::format("--only '{}' selects none of the algorithms of {}: {}", patterns[i], spec.name,
                                        fmt::join(labels, ", ")));
}

}  // namespace dpb::verify
