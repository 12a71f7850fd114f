#pragma once
// Failed trials grouped by (cell, algorithm) with their commonest reasons. `run` and `verify` print them
// and summary.md lists them, so a run whose trials failed (a missing program, a missing numpy) is never
// read as a quiet success; a (cell, algorithm) without one successful trial fails the run.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "verify/store/results.hpp"

namespace dpb::verify {

struct FailureGroup {
  std::size_t cell = 0;
  std::string cell_label;  // the parameters that differ between the run's cells ("n=200"), or "single cell"
  std::string algorithm;
  std::size_t trials = 0, failed = 0;
  std::vector<std::pair<std::string, std::size_t>> reasons;  // distinct messages, commonest first (top 3)
  bool all_failed() const { return failed == trials; }
};

// The (cell, algorithm) groups of `results` with at least one failed trial, in (cell, algorithm) order.
std::vector<FailureGroup> failure_groups(const ResultSet& results);

// One line per group: "n=200, external.command: 20 of 20 trials failed: <reason> (x20); ...".
std::string describe(const FailureGroup& group);
// The table of summary.md's "Failed trials" section, and what it means for the run ("" when nothing
// failed).
std::string failures_markdown(const std::vector<FailureGroup>& groups);

}  // namespace dpb::verify
