#pragma once
// Which statistic of a cell's errors a check compares with a theorem (DESIGN.md §5): the (1 - zeta)
// quantile for a high-probability theorem when every cell has enough trials, else the mean.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bounds/theorem.hpp"

namespace dpb::verify {

// Trials a cell needs before its (1 - zeta) quantile is used: ceil(factor / zeta), so that about
// `factor` trials are expected above the quantile (docs/checks.md, "The statistic").
std::size_t trials_for_quantile(double zeta, double factor);

struct ErrorStatistic {
  std::optional<double> quantile_level;  // 1 - zeta; absent: the mean
  std::string description;               // "quantile 0.99: ..." or "mean: ...", with the reason
  double operator()(const std::vector<double>& values) const;
};

// `fewest_trials`: the smallest number of successful trials in any cell the check uses.
ErrorStatistic choose_statistic(const bounds::Semantics& semantics, std::size_t fewest_trials, double factor);

}  // namespace dpb::verify
