#include "cli/verb.hpp"

#include <algorithm>
#include <fmt/core.h>

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

void print_json(const nlohmann::json& j) { fmt::print("{}\n", j.dump(2)); }

}  // namespace dpb::cli
