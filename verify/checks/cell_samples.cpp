#include "verify/checks/cell_samples.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace dpb::verify {

std::vector<CellSample> cell_samples(const ResultSet& results, const std::string& algorithm,
                                     const std::string& metric) {
  // Rows arrive in store order, which depends on thread scheduling; sorting by trial makes every
  // statistic (and the bootstrap, which indexes into `values`) independent of it.
  std::vector<const TrialRow*> rows;
  for (const auto& row : results.rows)
    if (row.algorithm == algorithm) rows.push_back(&row);
  std::sort(rows.begin(), rows.end(), [](const TrialRow* a, const TrialRow* b) {
    return a->cell != b->cell ? a->cell < b->cell : a->trial < b->trial;
  });
  std::map<std::size_t, CellSample> by_cell;
  for (const TrialRow* row : rows) {
    auto& sample = by_cell[row->cell];
    sample.cell = row->cell;
    sample.params = row->cell_params;
    const auto value = row->metrics.find(metric);
    if (row->error.empty() && value != row->metrics.end() && std::isfinite(value->second))
      sample.values.push_back(value->second);
    else
      ++sample.failed;
  }
  std::vector<CellSample> samples;
  for (auto& [cell, sample] : by_cell) samples.push_back(std::move(sample));
  return samples;
}

}  // namespace dpb::verify
