// Every YAML under configs/ validates: suites (configs/suites/) with every experiment they name,
// experiments everywhere else. A config that stops validating (a renamed algorithm, a parameter out
// of its new range) fails here, not in a user's run.
#include <catch2/catch.hpp>
#include <filesystem>

#include "verify/experiment/parse.hpp"
#include "verify/experiment/repository_configs.hpp"
#include "verify/suite.hpp"

namespace fs = std::filesystem;
using dpb::verify::test::configs_dir;

TEST_CASE("every config under configs/ validates", "[experiment][configs]") {
  const fs::path configs = configs_dir();
  INFO("run the tests from the repository or a build directory inside it");
  REQUIRE(!configs.empty());
  int suites = 0, experiments = 0;
  for (const auto& entry : fs::recursive_directory_iterator(configs)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    if (entry.path().parent_path().filename() == "suites") {
      CHECK_NOTHROW(dpb::verify::load_suite(entry.path()));
      ++suites;
    } else {
      CHECK_NOTHROW(dpb::verify::load_experiment(entry.path()));
      ++experiments;
    }
  }
  CHECK(suites >= 2);  // quick and full
  CHECK(experiments >= 1);
}
