#include "verify/runner/verdict_table.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

namespace dpb::verify {

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
