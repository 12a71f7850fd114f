#include "verify/runner/verdict_table.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

namespace dpb::verify {

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

void print_verdicts(const std::vector<Verdict>& verdicts, std::ostream& out) {
  if (verdicts.empty()) {
    fmt::print(out, "(no checks)\n");
    return;
  }
  for (const auto& v : verdicts)
    fmt::print(out, "{:<13} {}\n{:<13} {}\n", to_string(v.status), describe_check(v.check), "", v.summary);
}

std::array<std::size_t, 3> count_verdicts(const std::vector<Verdict>& verdicts) {
  std::array<std::size_t, 3> counts{};
  for (const auto& v : verdicts) ++counts[static_cast<std::size_t>(v.status)];
  return counts;
}

int verdicts_exit_code(const std::vector<Verdict>& verdicts) {
  return count_verdicts(verdicts)[static_cast<std::size_t>(VerdictStatus::fail)] > 0 ? kFailedCheckExitCode : 0;
}

}  // namespace dpb::verify
