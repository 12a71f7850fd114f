#include "bounds/papers.hpp"

namespace dpb::bounds {

std::vector<Theorem> liu2022_upper_bounds() { return {}; }

}  // namespace dpb::bounds
