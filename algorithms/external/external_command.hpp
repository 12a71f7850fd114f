#pragma once
// external.command: an algorithm written in any language, run as an external program that speaks the
// protocol of algorithms/external/protocol.hpp (docs/external.md). Each trial's data goes to the
// program's stdin, its estimate comes back on stdout; timeouts, a non-zero exit, malformed output, a
// reply that does not echo its request's id or a wrong shape are dpb::InvalidArgument for that trial,
// never a crash of the run. Modes (parameter `protocol`): one_shot starts the program once per trial;
// persistent keeps one program per worker thread and streams trial after trial through it, replacing
// it after any failed trial. Its privacy claim is the one the user declares
// (claim_* parameters), marked "user-declared, not verified by dpbounds"; the auditor checks it like
// any other.
#include "algorithms/registry.hpp"

namespace dpb::alg::external {

AlgorithmEntry external_command_entry();

}  // namespace dpb::alg::external
