#include "cli/verb.hpp"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <fmt/core.h>

#include "core/errors.hpp"
#include "core/params.hpp"

namespace dpb::cli {

namespace {
std::vector<Verb>& registered_verbs() {
  static std::vector<Verb> all;  // function-local: safe from static-initialisation order
  return all;
}
}  // namespace

bool register_verb(Verb verb) {
  registered_verbs().push_back(std::move(verb));
  return true;
}

std::vector<Verb> verbs() {
  auto sorted = registered_verbs();
  std::stable_sort(sorted.begin(), sorted.end(), [](const Verb& a, const Verb& b) { return a.order < b.order; });
  return sorted;
}

double number(const std::string& text, const std::string& option) { return core::parse_number(text, option); }

long integer(const std::string& text, const std::string& option) {
  const double v = number(text, option);
  if (v != std::floor(v) || std::abs(v) > 9.0e15)  // beyond 2^53 a double no longer holds every integer
    throw InvalidArgument(fmt::format("{} must be a whole number, got '{}'", option, text));
  return static_cast<long>(v);
}

core::ParamMap assignments(const std::vector<std::string>& texts) {
  core::ParamMap map;
  for (const auto& text : texts) {
    auto [name, value] = core::ParamMap::parse_assignment(text);
    map.set(name, std::move(value));
  }
  return map;
}

void print_json(const nlohmann::json& j) { fmt::print("{}\n", j.dump(2)); }

}  // namespace dpb::cli
