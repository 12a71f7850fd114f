#include "verify/runner/run_and_report.hpp"

#include <catch2/catch.hpp>

#include "verify/experiment/experiment_fixture.hpp"
#include "verify/runner/runner_fixture.hpp"
#include "verify/store/store.hpp"

using namespace dpb::verify;

TEST_CASE("a run stores its rows under out/<name> and writes the report next to them", "[runner]") {
  const test::TempDir dir("run_and_report");
  const auto spec = test::parse_text(std::string(test::kTinyExperiment) + "report: { table: { rows: n } }\n");
  const ExperimentRun run = run_and_report(spec, dir.path(), {1, false, false, nullptr});
  CHECK(run.dir == dir.path() / "tiny");
  CHECK(std::filesystem::is_regular_file(run.dir / "results.sqlite"));
  CHECK(std::filesystem::is_regular_file(run.dir / "summary.md"));
  CHECK(run.results.rows.size() == run.outcome.tasks);
  CHECK(run.verdicts.empty());  // the experiment has no checks
  // The stored settings let a later `check` redo the same.
  const auto settings = settings_from_json(nlohmann::json::parse(load_latest_run(run.dir).settings));
  CHECK(settings.seed == spec.seed);
  REQUIRE(settings.report.tables.size() == 1);
}
