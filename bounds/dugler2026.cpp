#include "bounds/papers.hpp"

namespace dpb::bounds {

std::vector<Theorem> dugler2026_upper_bounds() { return {}; }

}  // namespace dpb::bounds
