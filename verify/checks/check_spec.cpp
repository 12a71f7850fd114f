#include "verify/checks/check_spec.hpp"

#include <fmt/format.h>

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

std::string where_text(const CheckSpec& check) {
  std::string text;
  for (const auto& [name, range] : check.where)
    text += fmt::format("{} {} in [{:g}, {:g}]", text.empty() ? " where" : ",", name, range.first, range.second);
  return text;
}

nlohmann::json to_json(const CheckSpec& c) {
  return {{"kind", c.kind}, {"theorem", c.theorem}, {"algorithm", c.algorithm}, {"metric", c.metric},
          {"vary", c.vary}, {"against", c.against}, {"tolerance", c.tolerance}, {"optimal", c.optimal},
          {"params", c.params}, {"exponent", c.exponent}, {"side", c.side}, {"where", c.where}};
}

nlohmann::json to_json(const Verdict& v) {
  return {{"check", to_json(v.check)},
          {"status", to_string(v.status)},
          {"statistic", v.statistic},
          {"summary", v.summary},
          {"figures", v.figures}};
}

}  // namespace dpb::verify
