#pragma once
// Writes an experiment's report directory (DESIGN.md §5 "Reports").
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "verify/checks/check_spec.hpp"
#include "verify/report/report_spec.hpp"
#include "verify/store/results.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {

// Writes summary.md (verdicts first, then tables), tables/*.{md,tex,csv}, figures/*.{png,svg} (gnuplot,
// when installed), figures/*.tex (pgfplots) and verdicts.json into `dir`, atomically per file
// (write to a temporary name, rename), never leaving half-written files.
// A table's stat or a figure's y that is invalid throws dpb::InvalidArgument before anything is written;
// a missing gnuplot, a failing gnuplot or an unusable reference theorem never does (summary.md says so).
void write_report(const ResultSet& results, const ReportSpec& report, const std::vector<Verdict>& verdicts,
                  const std::filesystem::path& dir);

struct ReportOptions {
  std::optional<TheoremList> theorems;  // reference-line theorems; absent: verify::all_theorems()
  std::string gnuplot = "gnuplot";      // looked up on $PATH
};
void write_report(const ResultSet& results, const ReportSpec& report, const std::vector<Verdict>& verdicts,
                  const std::filesystem::path& dir, const ReportOptions& options);

}  // namespace dpb::verify
