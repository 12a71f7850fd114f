// Every YAML under configs/ validates: suites (configs/suites/) with every experiment they name,
// experiments everywhere else. A config that stops validating (a renamed algorithm, a parameter out
// of its new range) fails here, not in a user's run.
#include <catch2/catch.hpp>
#include <filesystem>

#include <set>
#include <string>

#include "algorithms/registry.hpp"
#include "verify/experiment/parse.hpp"
#include "verify/experiment/repository_configs.hpp"
#include "verify/suite/suite.hpp"

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

TEST_CASE("the quick suite audits every registered algorithm that claims privacy, and every mutant",
          "[experiment][configs]") {
  const fs::path configs = configs_dir();
  REQUIRE(!configs.empty());
  std::set<std::string> audited;
  for (const auto& experiment : dpb::verify::load_suite(configs / "suites" / "quick.yaml").experiments)
    for (const auto& audit : experiment.audits) audited.insert(audit.algorithm);
  // Not audited, each for a reason configs/experiments/audits.yaml gives: no privacy claim at their
  // defaults, or (the pipeline) a release that needs a claimed eps beyond what the audit budget can show.
  const std::set<std::string> exempt = {"liu2022.oja",
                                        "dugler2026.oja",
                                        "liu2022.learning_rate_search",
                                        "liu2022.minibatch_gradients",
                                        "baseline.nonprivate_pca",
                                        "external.command",
                                        "kumar2025.sparse_pca_pipeline"};
  for (const auto& entry : dpb::alg::algorithm_registry().entries()) {
    INFO(entry.id);
    CHECK((audited.count(entry.id) == 1 || exempt.count(entry.id) == 1));
  }
}
