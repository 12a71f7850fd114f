#pragma once
// The path of tests/algorithms/external/example_external_pca (built by tests/CMakeLists.txt), which ctest
// passes in DPB_EXTERNAL_EXAMPLE; when running tests_algorithms by hand, set it yourself.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

namespace dpb::test {

inline std::string example_program() {
  const char* path = std::getenv("DPB_EXTERNAL_EXAMPLE");
  INFO("set DPB_EXTERNAL_EXAMPLE to the path of the built example_external_pca (ctest does)");
  REQUIRE(path != nullptr);
  return path;
}

}  // namespace dpb::test
