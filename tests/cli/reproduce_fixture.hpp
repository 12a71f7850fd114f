#pragma once
// Running `dpbounds reproduce` from the repository root, for the per-paper reproduction tests.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/cli/run_cli.hpp"

namespace dpb::test {

// The repository root (where configs/papers lives): tests run from it or a build directory inside it.
inline std::filesystem::path repository_root() {
  for (auto dir = std::filesystem::current_path(); !dir.empty(); dir = dir.parent_path()) {
    if (std::filesystem::is_directory(dir / "configs" / "papers")) return dir;
    if (dir == dir.parent_path()) break;
  }
  return {};
}

// Runs `dpbounds reproduce args` from the repository root.
inline CliResult reproduce(const std::string& args) {
  const auto root = repository_root();
  REQUIRE(!root.empty());
  std::filesystem::current_path(root);
  return run_cli("reproduce " + args);
}

// The number of verdict lines ("PASS ", "FAIL ", "INCONCLUSIVE " at a line start) in a reproduce output.
inline long verdict_lines(const std::string& out) {
  long lines = 0;
  for (const char* status : {"\nPASS ", "\nFAIL ", "\nINCONCLUSIVE "})
    for (auto at = out.find(status); at != std::string::npos; at = out.find(status, at + 1)) ++lines;
  return lines;
}

}  // namespace dpb::test
