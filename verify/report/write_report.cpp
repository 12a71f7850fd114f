#include "verify/report/write_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "verify/report/atomic_file.hpp"
#include "verify/report/figures.hpp"
#include "verify/report/gnuplot.hpp"
#include "verify/report/grouped_values.hpp"
#include "verify/report/selection.hpp"
#include "verify/report/summary.hpp"
#include "verify/report/tables.hpp"

namespace dpb::verify {

namespace {

std::vector<RenderedTable> write_tables(const ResultSet& results, const ReportSpec& report,
                                        const std::filesystem::path& dir) {
  std::vector<RenderedTable> tables;
  for (const auto& spec : report.tables)
    for (const auto& metric : spec.metrics.empty() ? metric_names(results) : spec.metrics) {
      tables.push_back(render_table(results, spec, metric, report.algorithm_names));
      const auto& t = tables.back();
      write_file_atomically(dir / "tables" / (t.name + ".md"), t.md);
      write_file_atomically(dir / "tables" / (t.name + ".tex"), t.tex);
      write_file_atomically(dir / "tables" / (t.name + ".csv"), t.csv);
    }
  return tables;
}

// Draws PNG and SVG through gnuplot into temporary names and renames them once both are complete.
// Returns a note when gnuplot fails (the figure then has no PNG/SVG).
std::string draw_with_gnuplot(const FigureData& figure, const std::filesystem::path& gnuplot,
                              const std::filesystem::path& figures_dir, FigureEntry& entry) {
  const auto png = figures_dir / (figure.name + ".png"), svg = figures_dir / (figure.name + ".svg");
  const auto script = partial_path(figures_dir / (figure.name + ".gp.run"));
  write_file_atomically(script, gnuplot_script(figure, partial_path(png).filename().string(),
                                               partial_path(svg).filename().string()));
  const ProgramResult run = run_script(gnuplot, script, figures_dir);
  std::error_code ec;
  std::filesystem::remove(script, ec);
  const bool drawn = run.exit_code == 0 && std::filesystem::exists(partial_path(png), ec) &&
                     std::filesystem::exists(partial_path(svg), ec);
  if (drawn) {
    for (const auto& target : {png, svg}) {
      std::filesystem::rename(partial_path(target), target, ec);
      if (ec) break;
      entry.files.push_back("figures/" + target.filename().string());
    }
    if (!ec) return "";
  }
  std::filesystem::remove(partial_path(png), ec);
  std::filesystem::remove(partial_path(svg), ec);
  return fmt::format("gnuplot failed on {} (exit {}): {}", figure.name, run.exit_code, run.diagnostics);
}

std::vector<FigureEntry> write_figures(const ResultSet& results, const ReportSpec& report,
                                       const std::vector<Verdict>& verdicts, const std::filesystem::path& dir,
                                       const ReportOptions& options, std::string& figure_note) {
  const auto figures_dir = std::filesystem::absolute(dir / "figures");
  const TheoremList theorems = options.theorems ? *options.theorems : all_theorems();
  const auto gnuplot = find_program(options.gnuplot);
  if (gnuplot.empty() && !report.figures.empty())
    figure_note = fmt::format(
        "PNG/SVG skipped: `{}` was not found on PATH (install gnuplot-nox); the pgfplots "
        "`.tex` and gnuplot `.gp` files are written regardless.",
        options.gnuplot);
  std::vector<FigureEntry> entries;
  for (const auto& spec : report.figures) {
    FigureData figure = figure_data(results, spec, theorems, report.algorithm_names);
    // A claim about this figure's metric that did not reproduce carries its documented reason along.
    for (const auto& v : verdicts)
      if (v.status != VerdictStatus::pass && !v.check.note.empty() && v.check.metric == spec.y)
        figure.claim_notes.push_back(
            fmt::format("{} {}: {}", to_string(v.status), describe_check(v.check), v.check.note));
    FigureEntry entry{figure.name, {}, figure.notes};
    write_file_atomically(figures_dir / (figure.name + ".tex"), pgfplots_picture(figure));
    write_file_atomically(figures_dir / (figure.name + "-standalone.tex"), pgfplots_standalone(figure));
    write_file_atomically(figures_dir / (figure.name + ".gp"),
                          gnuplot_script(figure, figure.name + ".png", figure.name + ".svg"));
    entry.files = {"figures/" + figure.name + ".tex", "figures/" + figure.name + ".gp"};
    if (!gnuplot.empty())
      if (const auto failure = draw_with_gnuplot(figure, gnuplot, figures_dir, entry); !failure.empty())
        entry.notes.push_back(failure);
    entries.push_back(std::move(entry));
  }
  return entries;
}

nlohmann::json verdicts_json(const ResultSet& results, const std::vector<Verdict>& verdicts) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& v : verdicts) all.push_back(to_json(v));
  return {{"experiment", results.experiment}, {"hash", results.hash}, {"verdicts", all}};
}

}  // namespace

void write_report(const ResultSet& results, const ReportSpec& report, const std::vector<Verdict>& verdicts,
                  const std::filesystem::path& dir) {
  write_report(results, report, verdicts, dir, ReportOptions{});
}

void write_report(const ResultSet& results, const ReportSpec& report, const std::vector<Verdict>& verdicts,
                  const std::filesystem::path& dir, const ReportOptions& options) {
  for (const auto& t : report.tables) validate(t);
  for (const auto& f : report.figures) validate(f);
  const auto tables = write_tables(results, report, dir);
  std::string figure_note;
  const auto figures = write_figures(results, report, verdicts, dir, options, figure_note);
  write_file_atomically(dir / "verdicts.json", verdicts_json(results, verdicts).dump(2) + "\n");
  std::string selection;
  if (report.selection) {
    selection = selection_markdown(rank_candidates(results, *report.selection), *report.selection);
    write_file_atomically(dir / "selection.md", selection);
  }
  // summary.md last: its presence means every other file of the report is in place.
  write_file_atomically(dir / "summary.md",
                        summary_markdown(results, verdicts, tables, figures, figure_note, selection));
}

}  // namespace dpb::verify
