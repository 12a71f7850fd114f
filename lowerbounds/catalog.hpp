#pragma once
// Minimax lower bounds of every paper. They share the `Theorem` type with bounds/ (DESIGN.md §4),
// which is why dpb_lowerbounds links dpb_bounds.
#include <vector>

#include "bounds/theorem.hpp"

namespace dpb::lower {

const std::vector<bounds::Theorem>& lower_bound_theorems();

}  // namespace dpb::lower
