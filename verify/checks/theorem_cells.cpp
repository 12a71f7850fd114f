#include "verify/checks/theorem_cells.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cmath>
#include <algorithm>
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

// A condition that cannot be evaluated at a probed point counts as failing there.
bool holds(const bounds::Condition& condition, const bounds::Params& params) {
  try {
    return condition.holds(params);
  } catch (const std::exception&) {
    return false;
  }
}

bool all_hold(const bounds::Theorem& theorem, const bounds::Params& params) {
  return std::all_of(theorem.conditions.begin(), theorem.conditions.end(),
                     [&](const bounds::Condition& condition) { return holds(condition, params); });
}

// Where along the swept parameter the conditions would hold, from the cell with its largest value (the other
// parameters as that cell has them): the nearest value in a factor-2 scan over 2^-50..2^50 of it, refined by
// bisection to 3 significant digits. Only n, epsilon and delta are scanned: a model parameter also moves the
// model's derived quantities (V, gamma, lambda1, ...) that the cell holds fixed. "" when nothing is scanned.
std::string where_conditions_hold(const bounds::Theorem& theorem, const CheckSpec& check,
                                  const std::vector<bounds::Params>& outside) {
  const std::string& x = check.vary;
  if (x != "n" && x != "epsilon" && x != "delta") return "";
  const bounds::Params* widest = nullptr;
  for (const auto& params : outside)
    if (const auto it = params.find(x); it != params.end() && it->second > 0 &&
                                        (!widest || it->second > widest->at(x)))
      widest = &params;
  if (!widest) return "";
  bounds::Params probe = *widest;
  const double from = widest->at(x);
  const auto holds_at = [&](double value) {
    probe[x] = value;
    return all_hold(theorem, probe);
  };
  constexpr int kOctaves = 50;
  for (int j = 1; j <= kOctaves; ++j)
    for (const int sign : {+1, -1}) {
      double inside = std::ldexp(from, sign * j);
      if (!holds_at(inside)) continue;
      double outside_value = std::ldexp(from, sign * (j - 1));
      while (std::abs(inside - outside_value) > 1e-3 * inside) {
        const double mid = std::sqrt(inside * outside_value);
        (holds_at(mid) ? inside : outside_value) = mid;
      }
      return fmt::format("; with the other parameters of the cell where {} = {:.3g}, they hold at {} {} {:.3g}",
                         x, from, x, sign > 0 ? ">=" : "<=", inside);
    }
  return fmt::format("; with the other parameters of the cell where {} = {:.3g}, they hold at no {} within a factor "
                     "2^{} of it",
                     x, from, x, kOctaves);
}

// Why no cell is inside: every failing condition with the number of cells it fails in, and where they would all
// hold.
std::string none_inside(const bounds::Theorem& theorem, const CheckSpec& check,
                        const std::vector<bounds::Params>& outside) {
  std::vector<std::string> parts;
  for (const auto& condition : theorem.conditions) {
    const auto failing = std::count_if(outside.begin(), outside.end(),
                                       [&](const bounds::Params& params) { return !holds(condition, params); });
    if (failing > 0)
      parts.push_back(fmt::format("'{}' ({}) fails in {} of {} cells", condition.name, condition.text, failing,
                                  outside.size()));
  }
  return fmt::format("no cell lies inside the conditions of {}: {}{}", theorem.id, fmt::join(parts, "; "),
                     where_conditions_hold(theorem, check, outside));
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
  std::vector<bounds::Params> outside_params;
  for (const auto& sample : samples) {
    const bounds::Params params = theorem_params(theorem, check, sample.params, sample.cell);
    if (const auto condition = failed_condition(theorem, params, sample.cell); !condition.empty()) {
      cells.outside.push_back({{"cell", sample.cell}, {"condition", condition}});
      outside_params.push_back(params);
      continue;
    }
    // Only a cell the check reads needs trials: outside the conditions an algorithm may release nothing.
    if (sample.values.size() < options.min_trials_per_cell)
      throw Inconclusive(
          fmt::format("cell {} has {} successful trials of '{}' with metric '{}' ({} failed or "
                      "without it); a check needs >= {}",
                      sample.cell, sample.values.size(), check.algorithm, check.metric, sample.failed,
                      options.min_trials_per_cell));
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
  if (cells.inside.empty()) throw Inconclusive(none_inside(theorem, check, outside_params));
  return cells;
}

}  // namespace dpb::verify
