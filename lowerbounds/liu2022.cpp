#include "lowerbounds/papers.hpp"

namespace dpb::lower {

std::vector<bounds::Theorem> liu2022_lower_bounds() { return {}; }

}  // namespace dpb::lower
