#include "verify/checks/theorem_cells.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cmath>
#include <set>

#include "verify/checks/cell_samples.hpp"

namespace dpb::verify {

namespace {

std::string algorithms_present(const ResultSet& results) {
  std::set<std::string> names;
  for (const auto& row : results.rows) names.insert(row.algorithm);
  return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

// The first condition that fails at `params`, or "" when all hold.
std::string failed_condition(const bounds::Theorem& theorem, const bounds::Params& params, std::size_t cell) {
  for (const auto& condition : theorem.conditions) {
    try {
      if (!condition.holds(params)) return condition.name;
    } catch (const std::exception& e) {
      throw Inconclusive(fmt::format("condition '{}' of {} cannot be evaluated at cell {}: {}",
                                     condition.name, theorem.id, cell, e.what()));
    }
  }
  return "";
}

// The cell's parameters as the theorem reads them: the check's fixed constants (`params`, which must
// not restate what the cell carries), and a high-probability theorem's failure probability zeta, its
// own (Semantics) unless the cell or the check sets one.
bounds::Params theorem_params(const bounds::Theorem& theorem, const CheckSpec& check, bounds::Params params,
                              std::size_t cell) {
  for (const auto& [name, value] : check.params)
    if (!params.emplace(name, value).second)
      throw Inconclusive(fmt::format("the check's params set '{}', but cell {} carries it already (= {:g}, from the "
                                     "model or the grid); remove it from params",
                                     name, cell, params.at(name)));
  if (theorem.semantics.high_probability) params.emplace("zeta", theorem.semantics.zeta);
  return params;
}

}  // namespace

TheoremCells theorem_cells(const ResultSet& results, const CheckSpec& check, const bounds::Theorem& theorem,
                           const std::function<double(const bounds::Params&)>& evaluate,
                           const std::string& what, const CheckOptions& options) {
  const auto samples = cell_samples(results, check.algorithm, check.metric);
  if (samples.empty())
    throw Inconclusive(fmt::format("no trials of algorithm '{}' (present: {})", check.algorithm,
                                   algorithms_present(results)));
  TheoremCells cells;
  for (const auto& sample : samples) {
    if (sample.values.size() < options.min_trials_per_cell)
      throw Inconclusive(
          fmt::format("cell {} has {} successful trials of '{}' with metric '{}' ({} failed or "
                      "without it); a check needs >= {}",
                      sample.cell, sample.values.size(), check.algorithm, check.metric, sample.failed,
                      options.min_trials_per_cell));
    const bounds::Params params = theorem_params(theorem, check, sample.params, sample.cell);
    if (const auto condition = failed_condition(theorem, params, sample.cell); !condition.empty()) {
      cells.outside.push_back({{"cell", sample.cell}, {"condition", condition}});
      continue;
    }
    double value = 0;
    try {
      value = evaluate(params);
    } catch (const std::exception& e) {
      throw Inconclusive(fmt::format("the {} of {} cannot be evaluated at cell {}: {}", what, theorem.id,
                                     sample.cell, e.what()));
    }
    if (!(std::isfinite(value) && value > 0))
      throw Inconclusive(fmt::format("the {} of {} at cell {} is {}, not a finite positive number", what,
                                     theorem.id, sample.cell, value));
    cells.inside.push_back({sample.cell, params, sample.values, sample.failed, value});
  }
  return cells;
}

}  // namespace dpb::verify
