// The ranks interface (verify/distributed/ranks.hpp) of a build without MPI: always one process.
#include <fmt/format.h>

#include <stdexcept>

#include "core/errors.hpp"
#include "verify/distributed/launch.hpp"
#include "verify/distributed/ranks.hpp"

namespace dpb::verify::ranks {

Session::Session(int&, char**&) {
  if (const int launched = launched_size(); launched > 1)
    throw InvalidArgument(fmt::format(
        "started as one of {} MPI ranks, but this dpbounds was built without MPI: install Open MPI "
        "(libopenmpi-dev, openmpi-bin) and rebuild, or run it without mpirun",
        launched));
}
Session::~Session() = default;

bool built_with_mpi() { return false; }
int rank() { return 0; }
int size() { return 1; }
void broadcast(std::string&) {}
void send_to_root(std::string) { throw std::logic_error("send_to_root: a single process is its own root"); }
void advance_sends() {}
void finish_sends() {}
std::optional<std::string> receive(bool) { return std::nullopt; }
int agree(int exit_code) { return exit_code; }

int fail(int exit_code, const std::string& line) {
  // Launched as N copies by mpirun (the Session refused): one of them says so.
  if (launched_rank() == 0) fmt::print(stderr, "{}\n", line);
  return exit_code;
}

}  // namespace dpb::verify::ranks
