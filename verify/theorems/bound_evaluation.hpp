#pragma once
// What `dpbounds bound ID` prints: one theorem evaluated at a parameter point — its rate, each condition
// with its truth value, and the explicit lower-bound value where the theorem has one (DESIGN.md §4).
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bounds/theorem.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {

// The theorem of `theorems` with this id. An unknown id is a dpb::InvalidArgument that suggests the
// nearest ids by edit distance.
const bounds::Theorem& find_theorem(const TheoremList& theorems, const std::string& id);

// Up to `count` of `candidates` nearest to `id` by edit distance (verify/experiment/suggest.hpp), nearest
// first, ties in the given order.
std::vector<std::string> nearest(const std::vector<std::string>& candidates, const std::string& id,
                                 std::size_t count);

// The theorem's example point with every value of `given` put over it (`dpbounds bound --example`).
bounds::Params over_example(const bounds::Theorem& t, const bounds::Params& given);

struct ConditionValue {
  std::string name, text;
  bool holds = false;
};

struct BoundEvaluation {
  const bounds::Theorem* theorem = nullptr;
  bounds::Params params;
  double rate = 0;
  std::vector<ConditionValue> conditions;
  std::optional<double> explicit_value;  // bounds with explicit constants
  std::optional<double> explicit_floor;  // a containment's lower end
  std::set<std::string> read;            // the parameters its formulas read at this point

  bool all_conditions_hold() const;
};

// Which parts of a theorem to evaluate: the explicit value of a lower bound builds its construction,
// which callers that need only the rate (`gaps`) skip.
enum class ExplicitValue { evaluate, skip };

// Throws dpb::InvalidArgument, prefixed with the theorem id, when a parameter the rate, a condition or
// the explicit value reads is missing or outside its domain, or when the rate is not a finite number.
BoundEvaluation evaluate_bound(const bounds::Theorem& t, const bounds::Params& params,
                               ExplicitValue explicit_value = ExplicitValue::evaluate);

// Throws dpb::InvalidArgument when a name of `given` (what the user set) is not one the evaluation read:
// a typo or a parameter the theorem does not use would otherwise be ignored without a word.
void reject_unread(const BoundEvaluation& e, const bounds::Params& given);

// What `dpbounds bound` and the Python package's `bound()` evaluate: theorem `id` (of all_theorems()) at
// `given`, laid over its example point when `example`, every given name read (reject_unread). A
// parameter that is missing or outside its domain is a dpb::InvalidArgument ending with `how_to_set`
// (how this caller's user sets parameters).
BoundEvaluation evaluate_bound_request(const std::string& id, const bounds::Params& given, bool example,
                                       const std::string& how_to_set);

std::string to_text(const BoundEvaluation& e);
nlohmann::json to_json(const BoundEvaluation& e);

}  // namespace dpb::verify
