#include "lowerbounds/papers.hpp"

namespace dpb::lower {

std::vector<bounds::Theorem> cai2024_lower_bounds() { return {}; }

}  // namespace dpb::lower
