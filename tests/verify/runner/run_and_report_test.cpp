#include "verify/runner/run_and_report.hpp"

#include <catch2/catch.hpp>

#include "verify/experiment/experiment_fixture.hpp"
#include "verify/runner/runner_fixture.hpp"
#include "verify/runner/verdict_table.hpp"
#include "verify/store/store.hpp"

using namespace dpb::verify;

TEST_CASE("a run stores its rows under out/<name> and writes the report next to them", "[runner]") {
  const dpb::test::ScratchDir dir("run_and_report");
  const auto spec = test::parse_text(std::string(test::kTinyExperiment) + "report: { table: { rows: n } }\n");
  const ExperimentRun run = run_and_report(spec, dir.path(), {1, dpb::verify::StoredTrials::refuse, false, nullptr});
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

namespace {

ExperimentRun run_with_audit(const std::string& algorithm, AuditVerdict verdict) {
  ExperimentRun run;
  AuditResult audit;
  audit.spec.algorithm = algorithm;
  audit.verdict = verdict;
  run.audits.push_back(audit);
  return run;
}

}  // namespace

TEST_CASE("the exit code fails only on audits that contradict their expectation", "[runner]") {
  // A mutant flagged means the auditor works; a mutant missed or a real algorithm flagged fails the run.
  CHECK(run_exit_code(run_with_audit("mutant.wishart", AuditVerdict::violation)) == 0);
  CHECK(run_exit_code(run_with_audit("mutant.wishart", AuditVerdict::pass)) == kFailedCheckExitCode);
  CHECK(run_exit_code(run_with_audit("baseline.dp_gauss_1", AuditVerdict::violation)) == kFailedCheckExitCode);
  CHECK(run_exit_code(run_with_audit("baseline.dp_gauss_1", AuditVerdict::pass)) == 0);
  CHECK(run_exit_code(run_with_audit("baseline.nonprivate_pca", AuditVerdict::not_private)) == 0);
}

TEST_CASE("an audit-only experiment runs its audits and nothing else", "[runner]") {
  const dpb::test::ScratchDir dir("run_audits_only");
  const auto spec = test::parse_text(
      "name: audits\nseed: 3\naudit: { algorithm: baseline.dp_gauss_1, n: 50, d: 3, trials: 40 }\n");
  const ExperimentRun run = run_and_report(spec, dir.path(), {1, dpb::verify::StoredTrials::refuse, false, nullptr});
  REQUIRE(run.audits.size() == 1);
  CHECK(run.audits[0].spec.seed == 3);
  CHECK(run.audits[0].spec.privacy.delta == AuditSpec{}.privacy.delta);  // no privacy: the auditor's default
  CHECK(run.verdicts.empty());
  CHECK(std::filesystem::is_regular_file(run.dir / "audits.json"));
  CHECK_FALSE(std::filesystem::exists(run.dir / "results.sqlite"));
  CHECK_FALSE(std::filesystem::exists(run.dir / "summary.md"));
}
