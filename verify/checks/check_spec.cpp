#include "verify/checks/check_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dpb::verify {

std::string to_string(VerdictStatus status) {
  switch (status) {
    case VerdictStatus::pass:
      return "PASS";
    case VerdictStatus::fail:
      return "FAIL";
    case VerdictStatus::inconclusive:
      return "INCONCLUSIVE";
  }
  return "INCONCLUSIVE";
}

std::string describe_check(const CheckSpec& c) {
  if (c.kind == "consistency") return fmt::format("consistency {} vs {}", c.theorem, c.against);
  if (c.kind == "dominates")
    return fmt::format("dominates {} <= {} on {}{}", c.algorithm, c.against, c.metric, where_text(c));
  if (c.kind == "exponent")
    return fmt::format("exponent {} {} ~ {}^{:g}{}", c.algorithm, c.metric, c.vary, c.exponent,
                       c.side == "both" ? "" : " (" + c.side + ")");
  std::string text = fmt::format("{} {} {} {}", c.kind, c.theorem, c.algorithm, c.metric);
  if (!c.vary.empty()) text += " vs " + c.vary;
  std::vector<std::string> fixed;
  for (const auto& [name, value] : c.params) fixed.push_back(fmt::format("{}={:g}", name, value));
  if (!fixed.empty()) text += fmt::format(" [{}]", fmt::join(fixed, ", "));
  return text;
}

std::string where_text(const CheckSpec& check) {
  std::string text;
  for (const auto& [name, range] : check.where)
    text += fmt::format("{} {} in [{:g}, {:g}]", text.empty() ? " where" : ",", name, range.first, range.second);
  return text;
}

nlohmann::json to_json(const CheckSpec& c) {
  return {{"kind", c.kind}, {"theorem", c.theorem}, {"algorithm", c.algorithm}, {"metric", c.metric},
          {"vary", c.vary}, {"against", c.against}, {"tolerance", c.tolerance}, {"optimal", c.optimal},
          {"params", c.params}, {"exponent", c.exponent}, {"side", c.side}, {"where", c.where},
          {"override", c.override_reason}, {"note", c.note}};
}

nlohmann::json to_json(const Verdict& v) {
  return {{"check", to_json(v.check)},
          {"status", to_string(v.status)},
          {"statistic", v.statistic},
          {"summary", v.summary},
          {"figures", v.figures}};
}

}  // namespace dpb::verify
