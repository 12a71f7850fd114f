#include "lowerbounds/papers.hpp"

namespace dpb::lower {

std::vector<bounds::Theorem> kumar2025_lower_bounds() { return {}; }

}  // namespace dpb::lower
