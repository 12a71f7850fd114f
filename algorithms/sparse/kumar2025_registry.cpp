#include "algorithms/registrations.hpp"

namespace dpb::alg {

void register_kumar2025(Registry& /*registry*/) {}

}  // namespace dpb::alg
