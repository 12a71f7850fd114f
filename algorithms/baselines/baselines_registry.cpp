#include "algorithms/registrations.hpp"

namespace dpb::alg {

void register_baselines(Registry& /*registry*/) {}

}  // namespace dpb::alg
