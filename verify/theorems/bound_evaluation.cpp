#include "verify/theorems/bound_evaluation.hpp"

#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>

#include "bounds/params.hpp"
#include "core/errors.hpp"
#include "verify/experiment/suggest.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {
namespace {

// How many ids an unknown-id error suggests.
constexpr std::size_t kSuggestions = 3;

// Runs `f`, prefixing the message of a dpb::InvalidArgument it throws with the theorem's id.
template <class F>
auto for_theorem(const bounds::Theorem& t, F&& f) {
  try {
    return f();
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(fmt::format("{}: {}", t.id, e.what()));
  }
}

}  // namespace

std::vector<std::string> nearest(const std::vector<std::string>& candidates, const std::string& id,
                                 std::size_t count) {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& c : candidates) scored.emplace_back(edit_distance(c, id), c);
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < std::min(count, scored.size()); ++i) out.push_back(scored[i].second);
  return out;
}

const bounds::Theorem& find_theorem(const TheoremList& theorems, const std::string& id) {
  std::vector<std::string> ids;
  for (const auto* t : theorems) {
    if (t->id == id) return *t;
    ids.push_back(t->id);
  }
  if (ids.empty())
    throw InvalidArgument(fmt::format("unknown theorem '{}': no theorems are encoded yet", id));
  throw InvalidArgument(
      fmt::format("unknown theorem '{}': did you mean {}? ('dpbounds theorems' lists them all)", id,
                  fmt::join(nearest(ids, id, kSuggestions), ", ")));
}

bounds::Params over_example(const bounds::Theorem& t, const bounds::Params& given) {
  bounds::Params p = given;
  p.insert(t.example.begin(), t.example.end());  // insert keeps the given values
  return p;
}

bool BoundEvaluation::all_conditions_hold() const {
  return std::all_of(conditions.begin(), conditions.end(), [](const ConditionValue& c) { return c.holds; });
}

BoundEvaluation evaluate_bound(const bounds::Theorem& t, const bounds::Params& params,
                               ExplicitValue explicit_value) {
  const bounds::ParamReadLog log;
  BoundEvaluation e{&t, params, for_theorem(t, [&] { return t.rate(params); }), {}, std::nullopt, std::nullopt, {}};
  if (!std::isfinite(e.rate))
    throw InvalidArgument(fmt::format("{}: the rate is not finite ({}) at {}; check the parameters' domains",
                                      t.id, e.rate, bounds::params_text(params)));
  for (const auto& c : t.conditions)
    e.conditions.push_back({c.name, c.text, for_theorem(t, [&] { return c.holds(params); })});
  if (t.explicit_value && explicit_value == ExplicitValue::evaluate)
    e.explicit_value = for_theorem(t, [&] { return (*t.explicit_value)(params); });
  if (t.explicit_floor && explicit_value == ExplicitValue::evaluate)
    e.explicit_floor = for_theorem(t, [&] { return (*t.explicit_floor)(params); });
  e.read = log.names();
  return e;
}

void reject_unread(const BoundEvaluation& e, const bounds::Params& given) {
  const std::vector<std::string> read(e.read.begin(), e.read.end());
  for (const auto& [name, value] : given) {
    if (e.read.count(name)) continue;
    throw InvalidArgument(fmt::format("{} does not read parameter '{}'{}; at this point it reads {}", e.theorem->id, name,
                                      did_you_mean(name, read), fmt::join(read, ", ")));
  }
}

BoundEvaluation evaluate_bound_request(const std::string& id, const bounds::Params& given, bool example,
                                       const std::string& how_to_set) {
  const auto& theorem = find_theorem(all_theorems(), id);
  BoundEvaluation evaluation;
  try {
    evaluation = evaluate_bound(theorem, example ? over_example(theorem, given) : given);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(fmt::format("{} ({})", e.what(), how_to_set));
  }
  reject_unread(evaluation, given);
  return evaluation;
}

std::string to_text(const BoundEvaluation& e) {
  const auto& t = *e.theorem;
  std::string out = fmt::format("theorem     {} ({} bound)\nsource      {}\nloss        {}, {}\n", t.id,
                                to_string(t.kind), t.source, to_string(t.loss), to_string(t.semantics));
  if (!t.setting.empty()) out += fmt::format("setting     {}\n", t.setting);
  out += fmt::format("applies     {}\nrate        {}\n", fmt::join(t.applies, ", "), t.latex);
  if (!t.hides.empty()) out += fmt::format("hides       {}\n", t.hides);
  out += fmt::format("at          {}\n\nrate value  {:.6g}   (constants and hidden factors dropped)\n",
                     bounds::params_text(e.params), e.rate);
  if (e.explicit_value && e.explicit_floor)
    out += fmt::format("explicit    [{:.6g}, {:.6g}]   (the containment with its constants)\n", *e.explicit_floor,
                       *e.explicit_value);
  else if (e.explicit_value)
    out += fmt::format("explicit    {:.6g}   (the bound with its constants)\n", *e.explicit_value);
  if (!e.conditions.empty()) out += "conditions\n";
  for (const auto& c : e.conditions)
    out += fmt::format("  [{}] {}: {}\n", c.holds ? "holds" : "FAILS", c.name, c.text);
  const auto failing =
      std::count_if(e.conditions.begin(), e.conditions.end(), [](const auto& c) { return !c.holds; });
  out += failing == 0 ? "all conditions hold\n"
                      : fmt::format("{} of {} conditions fail: the theorem does not apply at this point\n",
                                    failing, e.conditions.size());
  return out;
}

nlohmann::json to_json(const BoundEvaluation& e) {
  nlohmann::json conditions = nlohmann::json::array();
  for (const auto& c : e.conditions)
    conditions.push_back({{"name", c.name}, {"text", c.text}, {"holds", c.holds}});
  nlohmann::json out = theorem_json(*e.theorem);
  out["params"] = e.params;
  out["rate_value"] = e.rate;
  out["conditions"] = conditions;
  out["all_conditions_hold"] = e.all_conditions_hold();
  out["explicit_value"] = e.explicit_value ? nlohmann::json(*e.explicit_value) : nlohmann::json(nullptr);
  if (e.explicit_floor) out["explicit_floor"] = *e.explicit_floor;
  return out;
}

}  // namespace dpb::verify
