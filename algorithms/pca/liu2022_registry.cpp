#include "algorithms/registrations.hpp"

namespace dpb::alg {

void register_liu2022(Registry& /*registry*/) {}

}  // namespace dpb::alg
