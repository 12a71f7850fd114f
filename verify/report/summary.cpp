#include "verify/report/summary.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>

#include "verify/report/failures.hpp"
#include "verify/report/markdown.hpp"

namespace dpb::verify {

namespace {

std::string overview(const ResultSet& results) {
  std::set<std::size_t> cells;
  std::set<std::string> algorithms;
  std::size_t failed = 0;
  for (const auto& row : results.rows) {
    cells.insert(row.cell);
    algorithms.insert(row.algorithm);
    failed += !row.error.empty();
  }
  return fmt::format("Experiment hash `{}`: {} trials over {} cells and {} algorithms; {} failed.\n",
                     results.hash, results.rows.size(), cells.size(), algorithms.size(), failed);
}

}  // namespace

std::string summary_markdown(const ResultSet& results, const std::vector<Verdict>& verdicts,
                             const std::vector<RenderedTable>& tables,
                             const std::vector<FigureEntry>& figures, const std::string& figure_note,
                             const std::string& selection) {
  std::string s = fmt::format("# Report: {}\n\n{}\n", results.experiment, overview(results));
  if (const std::string failures = failures_markdown(failure_groups(results)); !failures.empty())
    s += "## Failed trials\n\n" + failures;
  s += "## Verdicts\n\n";
  if (verdicts.empty())
    s += "No checks were configured.\n";
  else
    s += "| # | status | check | statistic | figures behind it |\n|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const auto& v = verdicts[i];
    s += fmt::format("| {} | **{}** | {} | {} | {} |\n", i + 1, to_string(v.status),
                     md_cell(describe_check(v.check)), md_cell(v.statistic), md_cell(v.summary));
  }
  s += "\nEvery number behind each verdict is in `verdicts.json`; docs/checks.md says how to read them.\n";
  if (!selection.empty()) s += fmt::format("\n## Selection\n\n{}\nFile: `selection.md`.\n", selection);
  s += "\n## Tables\n";
  if (tables.empty()) s += "\nNo tables were configured.\n";
  for (const auto& t : tables)
    s += fmt::format("\n### {}\n\n{}\nFiles: `tables/{}.md`, `tables/{}.tex`, `tables/{}.csv`.\n", t.caption,
                     t.md, t.name, t.name, t.name);
  s += "\n## Figures\n\n";
  if (figures.empty()) s += "No figures were configured.\n";
  for (const auto& f : figures) {
    std::vector<std::string> files;
    for (const auto& file : f.files) files.push_back(fmt::format("`{}`", file));
    s += fmt::format("- {}: {}\n", f.name, fmt::join(files, ", "));
    for (const auto& note : f.notes) s += fmt::format("  - {}\n", note);
  }
  if (!figure_note.empty()) s += fmt::format("\n{}\n", figure_note);
  return s;
}

}  // namespace dpb::verify
