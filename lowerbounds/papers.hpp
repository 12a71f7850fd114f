#pragma once
// One function per paper, each defined in lowerbounds/<key>.cpp; catalog.cpp concatenates them.
#include <vector>

#include "bounds/theorem.hpp"

namespace dpb::lower {

std::vector<bounds::Theorem> liu2022_lower_bounds();
std::vector<bounds::Theorem> cai2024_lower_bounds();
std::vector<bounds::Theorem> kumar2025_lower_bounds();
std::vector<bounds::Theorem> dugler2026_lower_bounds();

}  // namespace dpb::lower
