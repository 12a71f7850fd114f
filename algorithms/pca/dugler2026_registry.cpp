#include "algorithms/registrations.hpp"

namespace dpb::alg {

void register_dugler2026(Registry& /*registry*/) {}

}  // namespace dpb::alg
