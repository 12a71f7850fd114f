#pragma once
// configs/ of the repository, for the tests that read the shipped experiments.
#include <filesystem>

namespace dpb::verify::test {

// Tests run from the repository or from a build directory inside it; empty when neither.
inline std::filesystem::path configs_dir() {
  for (std::filesystem::path dir = std::filesystem::current_path(); !dir.empty(); dir = dir.parent_path()) {
    if (std::filesystem::is_directory(dir / "configs" / "suites")) return dir / "configs";
    if (dir == dir.parent_path()) break;
  }
  return {};
}

}  // namespace dpb::verify::test
