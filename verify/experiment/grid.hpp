#pragma once
// Grid expansion: the cartesian product of the experiment's grid groups (zipped axes advance together).
#include <map>
#include <string>
#include <vector>

#include "verify/experiment/spec.hpp"

namespace dpb::verify {

using Cell = std::map<std::string, double>;  // swept axis -> value

// Cells in expansion order: the first group varies slowest, the last fastest (like nested loops in
// file order). No groups: one empty cell. Throws dpb::InvalidArgument if a zipped group's axes differ
// in length or a group is empty.
std::vector<Cell> expand_grid(const std::vector<GridGroup>& grid);

// The axes a grid may sweep besides model parameters: they set the run, not the model.
inline const std::vector<std::string> kRunAxes = {"n", "epsilon", "delta"};

// What one cell runs with: the experiment's fixed n, privacy and model parameters with the cell's swept
// values laid over them (n, epsilon and delta set the run, every other axis is a model parameter).
struct CellSettings {
  long n = 0;
  alg::Privacy privacy;
  core::ParamMap model_params;
};
CellSettings cell_settings(const ExperimentSpec& spec, const Cell& cell);

}  // namespace dpb::verify
