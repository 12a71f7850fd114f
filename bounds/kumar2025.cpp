#include "bounds/papers.hpp"

namespace dpb::bounds {

std::vector<Theorem> kumar2025_upper_bounds() { return {}; }

}  // namespace dpb::bounds
