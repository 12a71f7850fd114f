#include "verify/suite/suite.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "bounds/theorem.hpp"
#include "core/errors.hpp"
#include "verify/experiment/experiment_fixture.hpp"
#include "verify/runner/runner_fixture.hpp"
#include "verify/runner/verdict_table.hpp"

using namespace dpb::verify;

namespace {

// A suite naming the tiny experiment as a file and one inline experiment.
std::filesystem::path write_suite(const std::filesystem::path& dir) {
  std::ofstream(dir / "tiny.yaml") << verify::test::kTinyExperiment;
  std::ofstream(dir / "s.yaml") << "name: s\ndescription: two tiny experiments\nexperiments:\n"
                                   "  - { file: tiny.yaml, set: [trials=2] }\n"
                                   "  - { name: inline, trials: 2, n: 100, model: { name: spiked_gaussian, d: 4 },\n"
                                   "      algorithms: [baseline.nonprivate_pca], metrics: [sin] }\n";
  return dir / "s.yaml";
}

}  // namespace

TEST_CASE("a suite lists experiment files (relative to it) and inline experiments", "[suite]") {
  const dpb::test::ScratchDir dir("suite_load");
  const SuiteSpec suite = load_suite(write_suite(dir.path()));
  CHECK(suite.name == "s");
  REQUIRE(suite.experiments.size() == 2);
  CHECK(suite.experiments[0].name == "tiny");
  CHECK(suite.experiments[0].trials == 2);
  CHECK(suite.experiments[1].name == "inline");
  // --only drops experiments it selects nothing of, but must select something somewhere.
  const SuiteSpec only = load_suite(dir.path() / "s.yaml", {{}, {"baseline.dp_gauss_1"}});
  REQUIRE(only.experiments.size() == 1);
  CHECK(only.experiments[0].algorithms.size() == 1);
  CHECK_THROWS_WITH(load_suite(dir.path() / "s.yaml", {{}, {"liu2022.*"}}), Catch::Contains("selects no algorithm"));
}

TEST_CASE("a suite name is looked up in the configs directory, wherever dpbounds runs from", "[suite]") {
  const dpb::test::ScratchDir dir("suite_lookup");
  std::filesystem::create_directories(dir.path() / "checkout" / "configs" / "suites");
  std::ofstream(dir.path() / "checkout" / "configs" / "suites" / "quick.yaml") << "name: quick\n";
  std::filesystem::create_directories(dir.path() / "prefix" / "share" / "dpbounds" / "configs" / "suites");
  std::ofstream(dir.path() / "prefix" / "share" / "dpbounds" / "configs" / "suites" / "full.yaml") << "name: full\n";
  std::filesystem::create_directories(dir.path() / "elsewhere");

  // From the checkout's root: ./configs.
  ConfigLocations where{std::nullopt, dir.path() / "checkout", std::nullopt};
  CHECK(suite_file("quick", where) == dir.path() / "checkout" / "configs" / "suites" / "quick.yaml");
  // From another directory, with the build tree's executable (checkout/build/dpbounds): <exe>/../configs.
  where = {std::nullopt, dir.path() / "elsewhere", dir.path() / "checkout" / "build" / "dpbounds"};
  CHECK(suite_file("quick", where) == dir.path() / "checkout" / "configs" / "suites" / "quick.yaml");
  // An installed executable (prefix/bin/dpbounds): <exe>/../share/dpbounds/configs.
  where.executable = dir.path() / "prefix" / "bin" / "dpbounds";
  CHECK(suite_file("full", where) == dir.path() / "prefix" / "share" / "dpbounds" / "configs" / "suites" / "full.yaml");
  // --configs / DPBOUNDS_CONFIGS is the only place tried when given.
  where.given = dir.path() / "checkout" / "configs";
  CHECK(suite_file("quick", where) == dir.path() / "checkout" / "configs" / "suites" / "quick.yaml");
  CHECK_THROWS_WITH(suite_file("full", where), Catch::Contains("no suite 'full'") && Catch::Contains("suites there: quick"));
  where.given = dir.path() / "elsewhere";
  CHECK_THROWS_WITH(suite_file("quick", where),
                    Catch::Contains("no suites directory") && Catch::Contains((dir.path() / "elsewhere" / "suites").string()) &&
                        Catch::Contains("--configs DIR or DPBOUNDS_CONFIGS=DIR"));
  // Nothing anywhere: every place tried is named.
  where = {std::nullopt, dir.path() / "elsewhere", dir.path() / "elsewhere" / "bin" / "dpbounds"};
  CHECK_THROWS_WITH(suite_file("quick", where), Catch::Contains((dir.path() / "elsewhere" / "configs" / "suites").string()) &&
                                                    Catch::Contains("share/dpbounds/configs/suites"));
  // A path is a path.
  CHECK(suite_file("my/suite.yaml", where) == std::filesystem::path("my/suite.yaml"));
}

TEST_CASE("the configs directory comes from the flag, else the environment", "[suite]") {
  CHECK(config_locations("/some/configs").given == std::filesystem::path("/some/configs"));
  ::setenv(kConfigsEnv, "/from/env", 1);
  CHECK(config_locations("").given == std::filesystem::path("/from/env"));
  CHECK(config_locations("/flag/wins").given == std::filesystem::path("/flag/wins"));
  ::unsetenv(kConfigsEnv);
  const auto plain = config_locations("");
  CHECK_FALSE(plain.given);
  CHECK(plain.working_dir == std::filesystem::current_path());
  REQUIRE(plain.executable);
  CHECK(plain.executable->filename() == "tests_verify");
}

TEST_CASE("suite errors carry the suite file's location", "[suite]") {
  const dpb::test::ScratchDir dir("suite_errors");
  std::ofstream(dir.path() / "bad.yaml") << "name: s\nexperiments:\n  - missing.yaml\n";
  CHECK_THROWS_WITH(load_suite(dir.path() / "bad.yaml"), Catch::StartsWith((dir.path() / "bad.yaml").string() + ":3:5: no experiment file"));
  std::ofstream(dir.path() / "typo.yaml") << "name: s\nexperiment: []\n";
  CHECK_THROWS_WITH(load_suite(dir.path() / "typo.yaml"), Catch::Contains(":2:1: unknown key 'experiment' in a suite (did you mean 'experiments'?)"));
  CHECK_THROWS_AS(load_suite(dir.path() / "none.yaml"), dpb::InvalidArgument);
}

TEST_CASE("a suite runs every experiment and writes its summary", "[suite]") {
  const dpb::test::ScratchDir dir("suite_run");
  const SuiteSpec suite = load_suite(write_suite(dir.path()));
  std::ostringstream log;
  const SuiteRun run = run_suite(suite, dir.path() / "results", {1, dpb::verify::StoredTrials::refuse, false, nullptr}, log);
  CHECK_FALSE(run.interrupted);
  REQUIRE(run.runs.size() == 2);
  CHECK_THAT(log.str(), Catch::Contains("[2/2] inline"));
  CHECK(std::filesystem::is_regular_file(dir.path() / "results" / "tiny" / "results.sqlite"));
  CHECK(std::filesystem::is_regular_file(dir.path() / "results" / "suite-s" / "summary.md"));
  CHECK(std::filesystem::is_regular_file(dir.path() / "results" / "suite-s" / "verdicts.json"));
}

TEST_CASE("a suite's verdicts are every run's, in order, and its exit code the worst run's", "[suite]") {
  const auto verdict = [](const std::string& theorem, VerdictStatus status) {
    Verdict v;
    v.check.theorem = theorem;
    v.status = status;
    return v;
  };
  SuiteRun run;
  run.runs.resize(2);
  run.runs[0].verdicts = {verdict("t.1", VerdictStatus::pass)};
  run.runs[1].verdicts = {verdict("t.2", VerdictStatus::inconclusive), verdict("t.3", VerdictStatus::fail)};
  const auto all = collect_verdicts(run);
  REQUIRE(all.verdicts.size() == 3);
  CHECK(all.verdicts[2].check.theorem == "t.3");
  CHECK(all.exit_code == kFailedCheckExitCode);  // the second run's FAIL
  run.runs[1].verdicts.pop_back();
  CHECK(collect_verdicts(run).exit_code == 0);
}

TEST_CASE("coverage lists each upper bound's algorithms as checked or not", "[suite]") {
  const dpb::test::ScratchDir dir("suite_coverage");
  const Coverage coverage = suite_coverage(load_suite(write_suite(dir.path())));
  CHECK(coverage.covered.empty());  // the suite has no checks
  std::size_t pairs = 0;
  for (const auto& theorem : dpb::bounds::upper_bound_theorems()) pairs += theorem.applies.size();
  CHECK(coverage.uncovered.size() == pairs);
}

TEST_CASE("a check without a theorem (dominates) covers no (algorithm, theorem) pair", "[suite]") {
  // Observed: summary.md listed "baseline.dp_gauss_star against " with an empty theorem.
  const dpb::test::ScratchDir dir("suite_coverage_dominates");
  std::ofstream(dir.path() / "tiny.yaml")
      << verify::test::kTinyExperiment
      << "checks:\n  - { kind: dominates, algorithm: baseline.nonprivate_pca, against: "
         "'baseline.dp_gauss_1[clip_constant=2]', "
         "metric: sin }\n";
  std::ofstream(dir.path() / "s.yaml") << "name: s\nexperiments: [tiny.yaml]\n";
  const Coverage coverage = suite_coverage(load_suite(dir.path() / "s.yaml"));
  CHECK(coverage.covered.empty());
  for (const auto& theorem : coverage.unchecked_lower_bounds) CHECK_FALSE(theorem.empty());
}

TEST_CASE("audits: kept in audit-only experiments, selected by --only, counted against their expectation", "[suite]") {
  const dpb::test::ScratchDir dir("suite_audits");
  std::ofstream(dir.path() / "s.yaml") << "name: s\nexperiments:\n"
                                          "  - { name: audits, audit: [{ algorithm: baseline.dp_gauss_1 },\n"
                                          "                            { algorithm: mutant.wishart }] }\n";
  const SuiteSpec suite = load_suite(dir.path() / "s.yaml");
  REQUIRE(suite.experiments.size() == 1);
  CHECK(suite.experiments[0].audits.size() == 2);
  // Command-line --set edits trials and grids, which an audit-only experiment does not have.
  CHECK(load_suite(dir.path() / "s.yaml", {{"trials=2"}, {}}).experiments[0].audits.size() == 2);
  const SuiteSpec only = load_suite(dir.path() / "s.yaml", {{}, {"mutant.*"}});
  REQUIRE(only.experiments.size() == 1);
  REQUIRE(only.experiments[0].audits.size() == 1);
  CHECK(only.experiments[0].audits[0].algorithm == "mutant.wishart");

  SuiteRun run;
  run.runs.emplace_back();
  CHECK(audit_summary(run).empty());
  for (const auto& [algorithm, verdict] : {std::pair{"mutant.wishart", AuditVerdict::violation},
                                           std::pair{"mutant.wishart", AuditVerdict::pass},
                                           std::pair{"baseline.dp_gauss_1", AuditVerdict::pass},
                                           std::pair{"baseline.nonprivate_pca", AuditVerdict::not_private}}) {
    AuditResult audit;
    audit.spec.algorithm = algorithm;
    audit.verdict = verdict;
    run.runs[0].audits.push_back(audit);
  }
  CHECK(audit_summary(run) ==
        "4 audits: 2 as expected (1 PASS, 1 VIOLATION expected), 1 UNEXPECTED, 1 not audited (no claim)");
}

TEST_CASE("a suite runs a tuning experiment first and the experiment it tunes with the candidate it selects", "[suite][tuning]") {
  const dpb::test::ScratchDir dir("suite_tuning");
  // Two DP-Gauss-1 candidates: a clip radius of 1e4 drowns the top direction in noise (sd ~ 1e8 against a sum of
  // 2000 second moments of size ~5), the default radius (no clipping, sd ~ 60) finds it; listed worst first so that
  // the order of the list cannot be what picks the winner.
  const std::string tuning = R"(  - name: tuning
    trials: 3
    n: 2000
    privacy: { epsilon: 1, delta: 1.0e-5 }
    model: { name: spiked_gaussian, d: 4, r: 1, lambda: 4 }
    algorithms: [{ baseline.dp_gauss_1: { beta: 10000 } }, baseline.dp_gauss_1]
    metrics: [sin]
    report: { select: { metric: sin } }
)";
  const std::string figure = R"(  - name: figure
    tuned_by: tuning
    trials: 3
    n: 2000
    privacy: { epsilon: 1, delta: 1.0e-5 }
    model: { name: spiked_gaussian, d: 4, r: 1, lambda: 4 }
    algorithms: [baseline.nonprivate_pca, { baseline.dp_gauss_1: { beta: 10000 } }]
    metrics: [sin]
    checks: [{ kind: dominates, algorithm: baseline.dp_gauss_1, against: baseline.nonprivate_pca, metric: sin }]
)";
  std::ofstream(dir.path() / "late.yaml") << "name: s\nexperiments:\n" << figure << tuning;
  CHECK_THROWS_WITH(load_suite(dir.path() / "late.yaml"), Catch::Contains("figure is tuned by tuning, which does not run before it"));
  std::ofstream(dir.path() / "s.yaml") << "name: s\nexperiments:\n" << tuning << figure;
  const SuiteSpec suite = load_suite(dir.path() / "s.yaml");
  std::ostringstream log;
  const SuiteRun run = run_suite(suite, dir.path() / "results", {1, dpb::verify::StoredTrials::refuse, false, nullptr}, log);
  REQUIRE(run.runs.size() == 2);
  CHECK_THAT(log.str(), Catch::Contains("figure runs baseline.dp_gauss_1, the candidate tuning selects"));
  std::set<std::string> ran;
  for (const auto& row : run.runs[1].results.rows) ran.insert(row.algorithm);
  CHECK(ran == std::set<std::string>{"baseline.nonprivate_pca", "baseline.dp_gauss_1"});
  REQUIRE(run.runs[1].verdicts.size() == 1);
  CHECK(run.runs[1].verdicts[0].check.algorithm == "baseline.dp_gauss_1");
}
