#include "verify/report/grouped_values.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "verify/checks/sample_statistics.hpp"

namespace dpb::verify {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

AxisKey key_of(const TrialRow& row, const std::string& axis) {
  if (axis == "algorithm") return {row.algorithm, kNaN, row.cell_params};
  const auto found = row.cell_params.find(axis);
  if (found == row.cell_params.end()) return {"n/a", kNaN, row.cell_params};
  return {fmt::format("{:g}", found->second), found->second, row.cell_params};
}

// The index of `key` in `keys`, appending it when new.
std::size_t index_of(std::vector<AxisKey>& keys, AxisKey key) {
  const auto found =
      std::find_if(keys.begin(), keys.end(), [&](const AxisKey& k) { return k.label == key.label; });
  if (found != keys.end()) return static_cast<std::size_t>(found - keys.begin());
  keys.push_back(std::move(key));
  return keys.size() - 1;
}

// Parameters ascending (absent last); algorithms keep their order of first appearance.
std::vector<std::size_t> display_order(const std::vector<AxisKey>& keys, bool numeric) {
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (numeric)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const double x = keys[a].value, y = keys[b].value;
      return std::isnan(y) ? !std::isnan(x) : x < y;
    });
  return order;
}

std::vector<std::size_t> inverse(const std::vector<std::size_t>& order) {
  std::vector<std::size_t> position(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  return position;
}

}  // namespace

GroupedValues group_values(const ResultSet& results, const std::string& rows, const std::string& columns,
                           const std::string& metric) {
  GroupedValues g;
  std::map<std::pair<std::size_t, std::size_t>, std::map<std::string, double>> first_params;
  std::set<std::string> pooled;
  for (const auto& stored : results.rows) {
    const TrialRow* row = &stored;
    const auto value = row->metrics.find(metric);
    if (!row->error.empty() || value == row->metrics.end() || !std::isfinite(value->second)) {
      ++g.failed;
      continue;
    }
    const std::pair<std::size_t, std::size_t> at{index_of(g.rows, key_of(*row, rows)),
                                                 index_of(g.columns, key_of(*row, columns))};
    g.values[at].push_back(value->second);
    const auto [first, inserted] = first_params.emplace(at, row->cell_params);
    if (!inserted)
      for (const auto& [name, v] : row->cell_params)
        if (!first->second.count(name) || first->second.at(name) != v) pooled.insert(name);
  }
  // Re-index into display order.
  const auto row_order = display_order(g.rows, rows != "algorithm");
  const auto column_order = display_order(g.columns, columns != "algorithm");
  const auto row_position = inverse(row_order), column_position = inverse(column_order);
  GroupedValues sorted;
  for (std::size_t i : row_order) sorted.rows.push_back(g.rows[i]);
  for (std::size_t j : column_order) sorted.columns.push_back(g.columns[j]);
  for (auto& [at, values] : g.values)
    sorted.values[{row_position[at.first], column_position[at.second]}] = std::move(values);
  sorted.pooled.assign(pooled.begin(), pooled.end());
  sorted.failed = g.failed;
  return sorted;
}

std::vector<std::string> metric_names(const ResultSet& results) {
  std::set<std::string> names;
  for (const auto& row : results.rows)
    for (const auto& [name, value] : row.metrics) names.insert(name);
  return {names.begin(), names.end()};
}

ValueSummary summarize(const std::vector<double>& values) {
  ValueSummary s;
  s.trials = values.size();
  s.mean = sample_mean(values);
  s.sd = values.size() >= 2 ? sample_sd(values) : kNaN;
  s.median = sample_quantile(values, 0.5);
  s.q25 = sample_quantile(values, 0.25);
  s.q75 = sample_quantile(values, 0.75);
  return s;
}

}  // namespace dpb::verify
