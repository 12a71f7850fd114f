#pragma once
// The cells a check compares with a theorem: one algorithm's values of one metric per cell, inside
// the theorem's conditions, each with a value of the theorem (its rate or its explicit bound)
// evaluated at the cell's parameters.
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bounds/theorem.hpp"
#include "verify/checks/check_options.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

struct TheoremCell {
  std::size_t cell = 0;
  bounds::Params params;
  std::vector<double> values;  // successful trials' metric values
  std::size_t failed = 0;
  double theorem_value = 0;  // `evaluate` at params: finite and > 0
};

struct TheoremCells {
  std::vector<TheoremCell> inside;
  nlohmann::json outside = nlohmann::json::array();  // {cell, condition} for cells a condition excludes
};

// Throws Inconclusive when the algorithm has no trials, no cell lies inside the conditions (the message names
// each failing condition and where along `check.vary` they would hold), a cell has fewer than
// options.min_trials_per_cell successful trials, a condition or `evaluate` cannot be evaluated at a
// cell (a missing parameter is named), or a value is not finite and > 0. `what` names the value
// ("rate", "explicit value") in those messages.
TheoremCells theorem_cells(const ResultSet& results, const CheckSpec& check, const bounds::Theorem& theorem,
                           const std::function<double(const bounds::Params&)>& evaluate,
                           const std::string& what, const CheckOptions& options);

}  // namespace dpb::verify
