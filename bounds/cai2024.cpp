#include "bounds/papers.hpp"

namespace dpb::bounds {

std::vector<Theorem> cai2024_upper_bounds() { return {}; }

}  // namespace dpb::bounds
