#include "verify/runner/stored_run.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "verify/experiment/experiment_fixture.hpp"
#include "verify/runner/run_and_report.hpp"
#include "verify/runner/runner_fixture.hpp"

using namespace dpb::verify;

TEST_CASE("a stored run reloads with its settings and renders its tables", "[runner]") {
  const dpb::test::ScratchDir dir("stored_run");
  const auto spec = test::parse_text(std::string(test::kTinyExperiment) + "report: { table: { rows: n, metrics: [sin] } }\n");
  const auto run = run_and_report(spec, dir.path(), {1, dpb::verify::StoredTrials::refuse, false, nullptr});
  const LoadedRun loaded = load_run(run.dir);
  CHECK(loaded.dir == run.dir);
  CHECK(loaded.results.rows.size() == run.results.rows.size());
  CHECK(loaded.settings.report.tables.size() == 1);
  const std::string csv = stored_tables(loaded, "csv");
  CHECK_THAT(csv, Catch::Contains("baseline.nonprivate_pca"));
  CHECK(stored_tables(loaded, "md").find('|') != std::string::npos);
  CHECK_THAT(stored_tables(loaded, "tex"), Catch::Contains("\\toprule"));
  CHECK_THROWS_AS(stored_tables(loaded, "html"), dpb::InvalidArgument);
  // No figures in the report: nothing written, and the run's summary is left alone.
  CHECK(stored_figures(loaded).empty());
  CHECK(std::filesystem::is_regular_file(run.dir / "summary.md"));
}
