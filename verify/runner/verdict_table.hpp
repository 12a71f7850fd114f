#pragma once
// The verdicts as a person reads them on a terminal: one line each, status first.
#include <array>
#include <ostream>
#include <string>
#include <vector>

#include "verify/checks/check_spec.hpp"

namespace dpb::verify {

// A header line, then "STATUS  check  summary" per verdict; "(no checks)" when there are none.
void print_verdicts(const std::vector<Verdict>& verdicts, std::ostream& out);
inline constexpr int kFailedCheckExitCode = 1;  // `run`, `check` and `verify` when a verdict is FAIL
// 0 when no verdict is FAIL, else kFailedCheckExitCode.
int verdicts_exit_code(const std::vector<Verdict>& verdicts);
// Counts by status: {pass, fail, inconclusive}.
std::array<std::size_t, 3> count_verdicts(const std::vector<Verdict>& verdicts);

}  // namespace dpb::verify
