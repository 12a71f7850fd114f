#include "verify/distributed/launch.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>

#include "verify/distributed/ranks.hpp"

namespace {

// Sets the launcher variables for the test's lifetime and removes them after.
class LauncherEnvironment {
 public:
  LauncherEnvironment() { clear(); }
  ~LauncherEnvironment() { clear(); }
  static void clear() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK"}) ::unsetenv(name);
  }
};

}  // namespace

TEST_CASE("the ranks a launcher started are read from Open MPI's or PMI's variables", "[distributed]") {
  const LauncherEnvironment env;
  CHECK(dpb::verify::ranks::launched_size() == 1);
  CHECK(dpb::verify::ranks::launched_rank() == 0);
  ::setenv("PMI_SIZE", "8", 1);
  ::setenv("PMI_RANK", "5", 1);
  CHECK(dpb::verify::ranks::launched_size() == 8);
  CHECK(dpb::verify::ranks::launched_rank() == 5);
  ::setenv("OMPI_COMM_WORLD_SIZE", "3", 1);  // Open MPI's own variables come first
  ::setenv("OMPI_COMM_WORLD_RANK", "2", 1);
  CHECK(dpb::verify::ranks::launched_size() == 3);
  CHECK(dpb::verify::ranks::launched_rank() == 2);
  ::setenv("OMPI_COMM_WORLD_SIZE", "many", 1);  // not a number: the next launcher's
  CHECK(dpb::verify::ranks::launched_size() == 8);
}

TEST_CASE("a process not started by a launcher is a single rank 0", "[distributed]") {
  const LauncherEnvironment env;
  int argc = 1;
  char name[] = "dpbounds";
  char* args[] = {name, nullptr};
  char** argv = args;
  const dpb::verify::ranks::Session session(argc, argv);
  CHECK(dpb::verify::ranks::rank() == 0);
  CHECK(dpb::verify::ranks::size() == 1);
  CHECK(dpb::verify::ranks::is_root());
  std::string bytes = "rank 0's";
  dpb::verify::ranks::broadcast(bytes);
  CHECK(bytes == "rank 0's");
  CHECK_FALSE(dpb::verify::ranks::receive(false).has_value());
  CHECK(dpb::verify::ranks::agree(7) == 7);
}

TEST_CASE("a build without MPI refuses to run as one of several ranks", "[distributed]") {
  // What it guards against exists only in a build without MPI (configure with
  // -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON to run it); an MPI build would start MPI here instead.
  if (dpb::verify::ranks::built_with_mpi()) return;
  const LauncherEnvironment env;
  ::setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  int argc = 1;
  char name[] = "dpbounds";
  char* args[] = {name, nullptr};
  char** argv = args;
  CHECK_THROWS_WITH(dpb::verify::ranks::Session(argc, argv), Catch::Contains("built without MPI"));
}
