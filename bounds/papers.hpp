#pragma once
// One function per paper, each defined in bounds/<key>.cpp; catalog.cpp concatenates them.
#include <vector>

#include "bounds/theorem.hpp"

namespace dpb::bounds {

std::vector<Theorem> liu2022_upper_bounds();
std::vector<Theorem> cai2024_upper_bounds();
std::vector<Theorem> kumar2025_upper_bounds();
std::vector<Theorem> dugler2026_upper_bounds();

}  // namespace dpb::bounds
