#include "lowerbounds/catalog.hpp"

namespace dpb::lower {

const std::vector<bounds::Theorem>& lower_bound_theorems() {
  // Filled paper by paper by the theorem-library issue (lowerbounds/<key>.cpp).
  static const std::vector<bounds::Theorem> theorems;
  return theorems;
}

}  // namespace dpb::lower
