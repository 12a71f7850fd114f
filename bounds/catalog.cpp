#include "bounds/theorem.hpp"

namespace dpb::bounds {

const std::vector<Theorem>& upper_bound_theorems() {
  // Filled paper by paper by the theorem-library issue (bounds/<key>.cpp).
  static const std::vector<Theorem> theorems;
  return theorems;
}

}  // namespace dpb::bounds
