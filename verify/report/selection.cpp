#include "verify/report/selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace dpb::verify {

std::vector<RankedCandidate> rank_candidates(const ResultSet& results, const SelectionSpec& spec) {
  std::vector<std::string> order;                                      // first appearance in the rows
  std::map<std::string, std::map<std::size_t, std::pair<double, std::size_t>>> sums;  // label -> cell -> (sum, count)
  for (const auto& row : results.rows) {
    const auto value = row.metrics.find(spec.metric);
    if (!row.error.empty() || value == row.metrics.end() || !std::isfinite(value->second)) continue;
    if (!sums.count(row.algorithm)) order.push_back(row.algorithm);
    auto& [sum, count] = sums[row.algorithm][row.cell];
    sum += value->second;
    ++count;
  }
  std::set<std::size_t> grid;  // every cell some candidate has a value in
  for (const auto& [label, cells] : sums)
    for (const auto& [cell, sum_count] : cells) grid.insert(cell);
  std::vector<RankedCandidate> ranking;
  for (const auto& label : order) {
    RankedCandidate c{label, 0, sums[label].size(), grid.size()};
    for (const auto& [cell, sum_count] : sums[label]) c.score += sum_count.first / double(sum_count.second);
    c.score /= double(c.cells);
    ranking.push_back(c);
  }
  std::stable_sort(ranking.begin(), ranking.end(), [&](const RankedCandidate& a, const RankedCandidate& b) {
    const bool a_covers = a.cells == a.grid_cells, b_covers = b.cells == b.grid_cells;
    return a_covers != b_covers ? a_covers : a.score < b.score;
  });
  return ranking;
}

std::string selection_markdown(const std::vector<RankedCandidate>& ranking, const SelectionSpec& spec) {
  if (ranking.empty()) return fmt::format("No candidate has a finite `{}`: nothing to select.\n", spec.metric);
  std::string s = fmt::format("Selected: `{}` (mean `{}` over the grid {:.4g}; smallest of {}).\n\n",
                              ranking.front().algorithm, spec.metric, ranking.front().score, ranking.size());
  s += fmt::format("| rank | candidate | mean {} over cells | cells |\n|---|---|---|---|\n", spec.metric);
  for (std::size_t i = 0; i < ranking.size(); ++i) {
    const auto& c = ranking[i];
    const std::string cells = c.cells == c.grid_cells
                                  ? std::to_string(c.cells)
                                  : fmt::format("{} of {} (no value elsewhere: ranked last)", c.cells, c.grid_cells);
    s += fmt::format("| {} | `{}` | {:.4g} | {} |\n", i + 1, c.algorithm, c.score, cells);
  }
  return s;
}

}  // namespace dpb::verify
