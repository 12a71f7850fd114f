#include "lowerbounds/catalog.hpp"

#include "lowerbounds/models/kumar2025_families.hpp"
#include "lowerbounds/papers.hpp"

namespace dpb::lower {

namespace {

// The construction families become data models of core's catalogue here: this file is linked into every
// program that reads the lower bounds, so the models are there wherever a check can use them.
const bool families_registered = [] {
  for (auto& entry : kumar2025_family_models()) core::register_model(std::move(entry));
  return true;
}();

}  // namespace

const std::vector<bounds::Theorem>& lower_bound_theorems() {
  static const std::vector<bounds::Theorem> theorems = [] {
    std::vector<bounds::Theorem> all;
    for (auto paper : {liu2022_lower_bounds, cai2024_lower_bounds, kumar2025_lower_bounds, dugler2026_lower_bounds}) {
      auto some = paper();
      all.insert(all.end(), std::make_move_iterator(some.begin()), std::make_move_iterator(some.end()));
    }
    return all;
  }();
  return theorems;
}

}  // namespace dpb::lower
