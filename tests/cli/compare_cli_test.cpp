// End-to-end test of `dpbounds compare` (docs/compare.md) on tiny runs of one experiment. The algorithm is
// external.command running example_external_pca through a shell script: rewriting the script changes the
// program's noise while its command line, hence its label, stays the same, exactly the "new version of my
// algorithm" a regression gate is for. Cells and labels therefore match between every pair of runs.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_cli.hpp"
#include "tests/support/scratch_dir.hpp"

namespace fs = std::filesystem;
using dpb::test::run_cli;

namespace {

// Noise standard deviation example_external_pca adds to the sample covariance: small against the
// eigengap lambda = 4 for the baseline, comparable to it for the deliberately worse version.
constexpr double kBaselineNoise = 0.2, kWorseNoise = 3.0;

// 30 trials per (cell, algorithm): the rank test's normal approximation is accurate there, and a shift
// of the error distribution as large as kWorseNoise gives rank-biserial effects near 1 (p ~ 1e-10).
// The audit of a declared eps = 5 claim cannot find a violation in either version: 100 runs per side
// detect at most eps ~ log(50) < 5 (docs/auditing.md), so its comparison is present and unchanged.
// The script is named relative to the scratch folder the runs start in: the command is the algorithm's
// label, which names its noise streams, so an absolute path (holding the test's pid) would draw other
// noise in every test process and make the seeded comparisons below random.
std::string experiment(const std::string& script, int seed) {
  const std::string algorithm = fmt::format(
      R"(command: "sh {}", protocol: persistent, claim_epsilon: 5, claim_delta: 1.0e-5, claim_scope: worst_case)",
      script);
  return fmt::format(R"(name: gate
seed: {0}
trials: 30
model: {{ name: spiked_gaussian, d: 5, r: 1, lambda: 4, sigma2: 1 }}
grid: {{ n: [400, 800] }}
privacy: {{ epsilon: 1.0, delta: 1.0e-5 }}
algorithms:
  - external.command: {{ {1} }}
metrics: [sin, projector_fro]
audit:
  - {{ algorithm: external.command, params: {{ {1} }}, n: 200, d: 5, trials: 100 }}
)",
                     seed, algorithm);
}

// Runs the experiment with the program at `noise` and `seed` into <scratch>/<out>; returns the results dir.
fs::path run_version(const dpb::test::ScratchDir& scratch, const std::string& out, double noise, int seed,
                     const std::string& extra = "") {
  const auto script = scratch.path() / "algorithm.sh";
  std::ofstream(script) << fmt::format("exec '{}' pca {}\n", DPB_EXTERNAL_EXAMPLE, noise);
  const auto config = scratch.path() / "gate.yaml";
  std::ofstream(config) << experiment(script.filename().string(), seed);
  const auto r = run_cli(fmt::format("run '{}' --threads 1 --out '{}' {}", config.string(),
                                     (scratch.path() / out).string(), extra),
                         fmt::format("cd '{}' &&", scratch.path().string()));
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  return scratch.path() / out / "gate";
}

}  // namespace

TEST_CASE("dpbounds compare gates on a significantly worse run and passes an unchanged or better one",
          "[cli][compare]") {
  const dpb::test::ScratchDir scratch("compare_cli");
  const auto baseline = run_version(scratch, "a", kBaselineNoise, 1);
  const auto reseeded = run_version(scratch, "a2", kBaselineNoise, 2);
  const auto worse = run_version(scratch, "b", kWorseNoise, 1);

  // Another seed, the same program: no significant change (a false alarm has probability <= alpha =
  // 0.05 over seeds; these seeds are fixed, so the outcome is too).
  auto r = run_cli(fmt::format("compare '{}' '{}'", baseline.string(), reseeded.string()));
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("OK: B is nowhere significantly worse") != std::string::npos);
  CHECK(r.out.find("WORSE") == std::string::npos);

  r = run_cli(fmt::format("compare '{}' '{}'", baseline.string(), worse.string()));
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(r.out.find("significant changes") != std::string::npos);
  CHECK(r.out.find("WORSE: B is significantly worse") != std::string::npos);

  // The other way round B is better: reported, never a failure.
  r = run_cli(fmt::format("compare '{}' '{}'", worse.string(), baseline.string()));
  CHECK(r.code == 0);
  CHECK(r.out.find("better") != std::string::npos);

  // JSON, the store file as input and one metric: 2 cells x 1 metric, each worse.
  r = run_cli(fmt::format("compare '{}' '{}' --metric sin --json", (baseline / "results.sqlite").string(),
                          worse.string()));
  REQUIRE(r.code == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("worse") == true);
  REQUIRE(j.at("errors").size() == 2);
  for (const auto& e : j.at("errors")) {
    CHECK(e.at("metric") == "sin");
    CHECK(e.at("change") == "WORSE");
    CHECK(e.at("p_holm").get<double>() <= 0.05);
    CHECK(e.at("mean_b").get<double>() > e.at("mean_a").get<double>());
  }
  // The audits of both runs (audits.json) are paired; neither finds a violation of the claim.
  REQUIRE(j.at("audits").size() == 1);
  CHECK(j.at("audits")[0].at("algorithm") == "external.command");
  CHECK(j.at("audits")[0].at("claimed_epsilon_a") == 5);
  CHECK(j.at("audits")[0].at("change") == "-");
}

// The regression-gate workflow of docs/compare.md: the program's noise halved by mistake. Its errors get
// better, so only the audit can tell: the example program adds Gaussian noise of sd sigma to the second
// moment, releasing all k = d eigenpairs, so second_moment_lr rebuilds the noisy matrix and its
// Gaussian-DP mu is |upper(x'x'^T - x x^T)| / (n sigma) for orthogonal canaries of norm c = 7.4
// (canary_scale 1): about 1.3 at sigma = 0.3 and 2.6 at 0.15. At 2000 runs per side the one-sided 95%
// intervals of the two mu estimates are about +-0.2 wide, far apart for halved noise and overlapping for
// a reseeded run of the same program.
std::string audited_experiment(int seed) {
  const std::string algorithm =
      R"(command: "sh algorithm.sh", protocol: persistent, claim_epsilon: 5, claim_delta: 1.0e-5, claim_scope: worst_case)";
  return fmt::format(R"(name: gate
seed: {0}
trials: 20
model: {{ name: spiked_gaussian, d: 5, r: 1, lambda: 4, sigma2: 1 }}
grid: {{ n: [200] }}
privacy: {{ epsilon: 1.0, delta: 1.0e-5 }}
algorithms:
  - external.command: {{ {1} }}
metrics: [sin]
audit:
  - {{ algorithm: external.command, params: {{ {1} }}, n: 200, d: 5, k: 5, neighbours: orthogonal_axes,
      score: second_moment_lr, canary_scale: 1, trials: 2000 }}
)",
                     seed, algorithm);
}

fs::path run_audited(const dpb::test::ScratchDir& scratch, const std::string& out, double noise, int seed) {
  std::ofstream(scratch.path() / "algorithm.sh") << fmt::format("exec '{}' pca {}\n", DPB_EXTERNAL_EXAMPLE, noise);
  const auto config = scratch.path() / "audited.yaml";
  std::ofstream(config) << audited_experiment(seed);
  const auto r = run_cli(fmt::format("run '{}' --threads 2 --out '{}'", config.string(), (scratch.path() / out).string()),
                         fmt::format("cd '{}' &&", scratch.path().string()));
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  return scratch.path() / out / "gate";
}

TEST_CASE("dpbounds compare catches halved noise through the audit, though the errors improve", "[cli][compare]") {
  // Observed: halved noise doubled the Gaussian-DP mu in every setting while compare flagged nothing.
  const dpb::test::ScratchDir scratch("compare_cli");
  const auto baseline = run_audited(scratch, "a", 0.3, 1);
  const auto halved = run_audited(scratch, "b", 0.15, 1);
  const auto reseeded = run_audited(scratch, "c", 0.3, 2);
  auto r = run_cli(fmt::format("compare '{}' '{}'", baseline.string(), halved.string()));
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("better") && Catch::Contains("WORSE: B's Gaussian-DP mu >= ") &&
                        Catch::Contains("WORSE: B is significantly worse than A"));
  r = run_cli(fmt::format("compare '{}' '{}'", baseline.string(), reseeded.string()));
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("OK: B is nowhere significantly worse"));
}

TEST_CASE("dpbounds compare fails when the algorithm under test is missing from B, until --map pairs it",
          "[cli][compare]") {
  // Observed: a changed argument changed the label; compare compared only the rest and said OK.
  const dpb::test::ScratchDir scratch("compare_cli");
  const auto config = scratch.path() / "gate.yaml";
  // The baseline run A as run_version makes it, next to a reference algorithm that keeps its label.
  const auto with_reference = [](std::string text) {
    return text.replace(text.find("algorithms:\n"), 12, "algorithms:\n  - baseline.nonprivate_pca\n");
  };
  const auto config_a = scratch.path() / "gate_a.yaml";
  std::ofstream(config_a) << with_reference(experiment("algorithm.sh", 1));
  std::ofstream(scratch.path() / "algorithm.sh") << fmt::format("exec '{}' pca {}\n", DPB_EXTERNAL_EXAMPLE, kBaselineNoise);
  REQUIRE(run_cli(fmt::format("run '{}' --threads 1 --out '{}'", config_a.string(), (scratch.path() / "a").string()),
                  fmt::format("cd '{}' &&", scratch.path().string()))
              .code == 0);
  const auto baseline = scratch.path() / "a" / "gate";
  std::string text = with_reference(experiment("algorithm.sh", 1));
  text.replace(text.find("claim_epsilon: 5,"), 17, "claim_epsilon: 6,");  // only in the algorithm list
  std::ofstream(config) << text;
  const auto relabelled = scratch.path() / "b";
  REQUIRE(run_cli(fmt::format("run '{}' --threads 1 --out '{}'", config.string(), relabelled.string()),
                  fmt::format("cd '{}' &&", scratch.path().string()))
              .code == 0);
  auto r = run_cli(fmt::format("compare '{}' '{}'", baseline.string(), (relabelled / "gate").string()));
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("not compared: 2 of A's") && Catch::Contains("(n=400) external.command[") &&
                        Catch::Contains("FAILED: B does not hold everything A does"));
  const std::string old_label =
      "external.command[claim_delta=1e-05,claim_epsilon=5,claim_scope=worst_case,command=sh algorithm.sh,protocol=persistent]";
  const std::string new_label =
      "external.command[claim_delta=1e-05,claim_epsilon=6,claim_scope=worst_case,command=sh algorithm.sh,protocol=persistent]";
  r = run_cli(fmt::format("compare '{}' '{}' --map '{}={}'", baseline.string(), (relabelled / "gate").string(),
                          old_label, new_label));
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("OK: B is nowhere significantly worse"));
}

TEST_CASE("dpbounds compare rejects bad input with one line and exit 2", "[cli][compare]") {
  const dpb::test::ScratchDir scratch("compare_cli");
  const auto baseline = run_version(scratch, "a", kBaselineNoise, 1);
  const auto other_grid = run_version(scratch, "c", kBaselineNoise, 1, "--set 'grid.n=[300]'");
  const auto expect_usage_error = [](const std::string& args, const std::string& message) {
    const auto r = run_cli("compare " + args);
    INFO(r.out << r.err);
    CHECK(r.code == 2);
    CHECK(dpb::test::lines(r.err) == 1);
    CHECK(r.err.find(message) != std::string::npos);
  };
  expect_usage_error(fmt::format("'{}' '{}'", baseline.string(), (scratch.path() / "missing").string()),
                     "no results store");
  expect_usage_error(fmt::format("'{}' '{}'", baseline.string(), other_grid.string()), "share no (cell, algorithm)");
  expect_usage_error(fmt::format("'{}' '{}' --metric cov_op", baseline.string(), baseline.string()),
                     "metric 'cov_op' is not held by both runs");
  expect_usage_error(fmt::format("'{}' '{}' --alpha 2", baseline.string(), baseline.string()), "(0, 1)");
}
