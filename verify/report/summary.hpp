#pragma once
// summary.md: the verdicts first (what a reader looks for), then a tuning experiment's selection, the
// tables, then the figures and anything left out of them.
#include <string>
#include <vector>

#include "verify/checks/check_spec.hpp"
#include "verify/report/tables.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

struct FigureEntry {
  std::string name;                // file stem under figures/
  std::vector<std::string> files;  // written, relative to the report directory
  std::vector<std::string> notes;
};

std::string summary_markdown(const ResultSet& results, const std::vector<Verdict>& verdicts,
                             const std::vector<RenderedTable>& tables,
                             const std::vector<FigureEntry>& figures, const std::string& figure_note,
                             const std::string& selection = "");

}  // namespace dpb::verify
