#include "algorithms/registrations.hpp"

namespace dpb::alg {

void register_cai2024(Registry& /*registry*/) {}

}  // namespace dpb::alg
