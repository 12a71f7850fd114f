#include "verify/report/failures.hpp"

#include "verify/report/cell_label.hpp"
#include "verify/report/markdown.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace dpb::verify {
namespace {

constexpr std::size_t kReasonsShown = 3;
constexpr std::size_t kReasonChars = 200;  // long messages (a program's stderr) are cut here

// Each cell's label among the run's cells.
std::map<std::size_t, std::string> cell_labels(const ResultSet& results) {
  std::map<std::size_t, const CellParams*> params_of;
  for (const auto& row : results.rows) params_of.emplace(row.cell, &row.cell_params);
  std::vector<const CellParams*> cells;
  for (const auto& [cell, params] : params_of) cells.push_back(params);
  const std::set<std::string> varying = varying_params(cells);
  std::map<std::size_t, std::string> labels;
  for (const auto& [cell, params] : params_of) labels[cell] = cell_label(*params, varying);
  return labels;
}

std::string shortened(const std::string& reason) {
  return reason.size() <= kReasonChars ? reason : reason.substr(0, kReasonChars) + "...";
}

}  // namespace

std::vector<FailureGroup> failure_groups(const ResultSet& results) {
  std::map<std::pair<std::size_t, std::string>, FailureGroup> groups;
  std::map<std::pair<std::size_t, std::string>, std::map<std::string, std::size_t>> reasons;
  for (const auto& row : results.rows) {
    FailureGroup& g = groups[{row.cell, row.algorithm}];
    g.cell = row.cell;
    g.algorithm = row.algorithm;
    ++g.trials;
    if (row.error.empty()) continue;
    ++g.failed;
    ++reasons[{row.cell, row.algorithm}][row.error];
  }
  const auto labels = cell_labels(results);
  std::vector<FailureGroup> failed;
  for (auto& [key, g] : groups) {
    if (g.failed == 0) continue;
    g.cell_label = labels.at(g.cell);
    for (const auto& [reason, count] : reasons[key]) g.reasons.emplace_back(reason, count);
    std::stable_sort(g.reasons.begin(), g.reasons.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (g.reasons.size() > kReasonsShown) g.reasons.resize(kReasonsShown);
    failed.push_back(std::move(g));
  }
  return failed;
}

std::string describe(const FailureGroup& g) {
  std::vector<std::string> reasons;
  for (const auto& [reason, count] : g.reasons) reasons.push_back(fmt::format("{} (x{})", shortened(reason), count));
  return fmt::format("{}, {}: {} of {} trials failed: {}", g.cell_label, g.algorithm, g.failed, g.trials,
                     fmt::join(reasons, "; "));
}

std::string failures_markdown(const std::vector<FailureGroup>& groups) {
  if (groups.empty()) return "";
  std::string md = "| cell | algorithm | failed | commonest reasons |\n|---|---|---|---|\n";
  for (const auto& g : groups) {
    std::vector<std::string> reasons;
    for (const auto& [reason, count] : g.reasons) reasons.push_back(md_cell(fmt::format("{} (x{})", shortened(reason), count)));
    md += fmt::format("| {} | {} | {}{} of {} | {} |\n", g.cell_label, g.algorithm, g.all_failed() ? "**all** " : "",
                      g.failed, g.trials, fmt::join(reasons, "<br>"));
  }
  const auto none = std::count_if(groups.begin(), groups.end(), [](const auto& g) { return g.all_failed(); });
  if (none > 0)
    md += fmt::format("\n{} (cell, algorithm) pairs have no successful trial: the run fails (exit 1).\n", none);
  return md + "\n";
}

}  // namespace dpb::verify
