// The shipped kumar2025 lower-bound experiments (configs/experiments/kumar2025-lower*.yaml, in the quick
// suite) run end to end and their falsification checks PASS, each with the statistic its theorem bounds.
#include <catch2/catch.hpp>

#include "verify/experiment/parse.hpp"
#include "verify/experiment/repository_configs.hpp"
#include "verify/runner/run_and_report.hpp"
#include "verify/runner/runner_fixture.hpp"

using namespace dpb::verify;

namespace {

ExperimentRun run_shipped(const std::string& file, const dpb::test::ScratchDir& dir) {
  const auto configs = test::configs_dir();
  INFO("run the tests from the repository or a build directory inside it");
  REQUIRE(!configs.empty());
  return run_and_report(load_experiment(configs / "experiments" / file), dir.path(), {1, dpb::verify::StoredTrials::refuse, false, nullptr});
}

}  // namespace

TEST_CASE("kumar2025 Theorem 4 and Table 2's private row hold for the exponential mechanism on Lemma 19's family",
          "[runner][kumar2025]") {
  const dpb::test::ScratchDir dir("kumar2025_lower_pure");
  const ExperimentRun run = run_shipped("kumar2025-lower-pure.yaml", dir);
  REQUIRE(run.verdicts.size() == 2);
  for (const auto& v : run.verdicts) {
    INFO(v.check.theorem << ": " << v.summary);
    CHECK(v.status == VerdictStatus::pass);
    // "Pr[sin > 1/20] > 1/3": the 2/3 quantile of sin, in every cell inside n < 0.196 d/eps, against 1/20.
    CHECK(v.statistic.rfind("quantile 0.666667", 0) == 0);
    REQUIRE(v.figures["cells"].size() == 3);
    CHECK(v.figures["outside_conditions"].empty());
    for (const auto& cell : v.figures["cells"]) {
      CHECK(double(cell["lower_bound"]) == 1.0 / 20);
      CHECK(double(cell["statistic"]) <= 1);  // a sine
    }
  }
}

TEST_CASE("kumar2025 Theorem 5 holds for DP-Gauss-1 on the padded subcube's edge spike", "[runner][kumar2025]") {
  const dpb::test::ScratchDir dir("kumar2025_lower");
  const ExperimentRun run = run_shipped("kumar2025-lower.yaml", dir);
  REQUIRE(run.verdicts.size() == 1);
  const auto& v = run.verdicts.front();
  INFO(v.summary);
  CHECK(v.status == VerdictStatus::pass);
  CHECK(v.statistic.rfind("mean:", 0) == 0);
  REQUIRE(v.figures["cells"].size() == 3);
  CHECK(v.figures["outside_conditions"].empty());
  // Private Assouad's value (1/16)(0.9 e^{-20 eps n/d} - 20 n delta/d) with the measured separation and
  // coupling lies in (0, 0.9/16] and falls with n.
  for (const auto& cell : v.figures["cells"]) {
    CHECK(double(cell["lower_bound"]) > 0);
    CHECK(double(cell["lower_bound"]) <= 0.9 / 16);
  }
}
