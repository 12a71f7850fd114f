#include "bounds/papers.hpp"

namespace dpb::bounds {

const std::vector<Theorem>& upper_bound_theorems() {
  static const std::vector<Theorem> theorems = [] {
    std::vector<Theorem> all;
    for (auto paper : {liu2022_upper_bounds, cai2024_upper_bounds, kumar2025_upper_bounds, dugler2026_upper_bounds}) {
      auto some = paper();
      all.insert(all.end(), std::make_move_iterator(some.begin()), std::make_move_iterator(some.end()));
    }
    return all;
  }();
  return theorems;
}

}  // namespace dpb::bounds
