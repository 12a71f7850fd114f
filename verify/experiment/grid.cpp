#include "verify/experiment/grid.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::verify {
namespace {

std::size_t group_size(const GridGroup& group) {
  if (group.axes.empty() || group.values.size() != group.axes.size())
    throw InvalidArgument("grid: a group needs at least one axis and one list of values per axis");
  const std::size_t size = group.values.front().size();
  for (std::size_t a = 0; a < group.axes.size(); ++a)
    if (group.values[a].size() != size || size == 0)
      throw InvalidArgument(fmt::format("grid: zipped axes must have the same, nonzero number of values; '{}' has {} "
                                        "and '{}' has {}",
                                        group.axes.front(), size, group.axes[a], group.values[a].size()));
  return size;
}

}  // namespace

std::vector<Cell> expand_grid(const std::vector<GridGroup>& grid) {
  std::vector<Cell> cells{Cell{}};
  for (const auto& group : grid) {
    const std::size_t size = group_size(group);
    std::vector<Cell> next;
    next.reserve(cells.size() * size);
    for (const auto& cell : cells)
      for (std::size_t i = 0; i < size; ++i) {
        Cell extended = cell;
        for (std::size_t a = 0; a < group.axes.size(); ++a) extended[group.axes[a]] = group.values[a][i];
        next.push_back(std::move(extended));
      }
    cells = std::move(next);
  }
  return cells;
}

CellSettings cell_settings(const ExperimentSpec& spec, const Cell& cell) {
  CellSettings settings{spec.n, spec.privacy, spec.model_params};
  for (const auto& [axis, value] : cell) {
    if (axis == "n") settings.n = static_cast<long>(value);
    else if (axis == "epsilon") settings.privacy.epsilon = value;
    else if (axis == "delta") settings.privacy.delta = value;
    else settings.model_params.set(axis, value);
  }
  return settings;
}

}  // namespace dpb::verify
