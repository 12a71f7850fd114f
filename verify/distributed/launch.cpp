#include "verify/distributed/launch.hpp"

#include <cstdlib>
#include <string>

namespace dpb::verify::ranks {
namespace {

// The first of `names` set to a whole number, else `otherwise`.
int environment_number(const char* const* names, int otherwise) {
  for (; *names; ++names)
    if (const char* text = std::getenv(*names)) {
      try {
        return std::stoi(text);
      } catch (const std::exception&) {
        // not a number: try the next launcher's variable
      }
    }
  return otherwise;
}

}  // namespace

int launched_size() {
  static const char* const names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", nullptr};
  return environment_number(names, 1);
}

int launched_rank() {
  static const char* const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", nullptr};
  return environment_number(names, 0);
}

}  // namespace dpb::verify::ranks
