#include "lowerbounds/papers.hpp"

namespace dpb::lower {

std::vector<bounds::Theorem> dugler2026_lower_bounds() { return {}; }

}  // namespace dpb::lower
