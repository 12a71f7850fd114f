#include "algorithms/external/external_command.hpp"
#include "algorithms/registrations.hpp"

namespace dpb::alg {

// Algorithms that run outside dpbounds (docs/external.md).
void register_external(Registry& registry) { registry.add(external::external_command_entry()); }

}  // namespace dpb::alg
