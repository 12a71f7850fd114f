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

}  // namespace dpb::verify
