// End-to-end tests of `dpbounds run / check / table / plot / verify`: the executable as a child
// process (its path in ctest's DPB_CLI), killed or interrupted mid-run to test the store's promises.
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cli/run_cli.hpp"
#include "cli/spawn_cli.hpp"
#include "tests/support/scratch_dir.hpp"
#include "verify/experiment/canonical.hpp"
#include "verify/runner/runner_fixture.hpp"
#include "verify/experiment/parse.hpp"
#include "verify/store/store.hpp"

namespace fs = std::filesystem;
using dpb::verify::TrialRow;

namespace {

// Enough tasks (2 cells x 2 algorithms x 150 trials at n = 20000) that a run lasts about a second, so a
// kill lands mid-run: at n = 3000 a whole run sometimes finished between two polls of the store on a loaded
// machine (seen once in CI); small enough to keep the test in seconds.
const char* const kSlowExperiment = R"(name: slow
seed: 3
trials: 150
model: { name: spiked_gaussian, d: 10, r: 1, lambda: 4 }
grid: { n: [20000, 20001] }
privacy: { epsilon: 1.0, delta: 1.0e-5 }
algorithms:
  - baseline.nonprivate_pca
  - baseline.dp_gauss_1: { clip_constant: 2 }
metrics: [projector_fro, sin]
report: { table: { rows: n, metrics: [sin] } }
)";

using dpb::test::Child;
using dpb::test::wait_for;
using Result = dpb::test::CliResult;  // code: the exit status, or -signal when killed

// `dpbounds args...` to completion (each argument shell-quoted).
Result run(const std::vector<std::string>& args) {
  std::string line;
  for (const auto& a : args) line += " '" + a + "'";
  return dpb::test::run_cli(line);
}

// The stored rows of `config`'s experiment (as --set/--only change it) under `out`.
std::vector<TrialRow> stored_rows(const fs::path& out, const fs::path& config, const dpb::verify::ExperimentOverrides& o = {}) {
  const auto spec = dpb::verify::load_experiment(config, o);
  const auto file = out / spec.name / "results.sqlite";
  if (!fs::exists(file)) return {};
  dpb::verify::ResultStore store(file);
  return store.load(dpb::verify::content_hash(spec)).rows;
}

std::size_t stored_count(const fs::path& out, const fs::path& config) {
  const auto spec = dpb::verify::load_experiment(config);
  const auto file = out / spec.name / "results.sqlite";
  if (!fs::exists(file)) return 0;
  dpb::verify::ResultStore store(file);
  return store.finished(dpb::verify::content_hash(spec)).size();
}

// Waits until the running child has committed at least one row (the run is then mid-way).
void wait_for_rows(const Child& child, const fs::path& out, const fs::path& config) {
  dpb::test::wait_while_running(child, [&] { return stored_count(out, config) > 0; });
}

constexpr std::size_t kSlowTasks = 2 * 2 * 150;

}  // namespace

TEST_CASE("run stores every trial, prints its report, and check/table/plot read it back", "[cli][run]") {
  const dpb::test::ScratchDir ws("run_cli");
  const auto config = ws.write("slow.yaml", kSlowExperiment);
  const auto out = ws.path() / "results";
  const auto r = run({"run", config.string(), "--set", "trials=3", "--out", out.string(), "--threads", "2"});
  CHECK(r.code == 0);
  CHECK(r.out.find("slow: 12 tasks, 12 run now (0 failed), 0 already stored") != std::string::npos);
  // Not a terminal: one line per cell (in the order the cells finish).
  CHECK_THAT(r.err, Catch::Contains("cell 1/2 (n=") && Catch::Contains("cell 2/2 (n=") && Catch::Contains("(n=20001)"));
  CHECK(fs::is_regular_file(out / "slow" / "summary.md"));
  const auto check = run({"check", (out / "slow").string()});
  CHECK(check.code == 0);
  CHECK(check.out == "(no checks)\n");
  const auto table = run({"table", (out / "slow" / "results.sqlite").string(), "--format", "csv"});
  CHECK(table.code == 0);
  CHECK(table.out.find("baseline.dp_gauss_1[clip_constant=2]") != std::string::npos);
  const auto plot = run({"plot", (out / "slow").string()});
  CHECK(plot.code == 0);
  CHECK(plot.out == "no figures: the experiment's report names none\n");
}

TEST_CASE("run --only and --set select and change what runs", "[cli][run]") {
  const dpb::test::ScratchDir ws("run_cli");
  const auto config = ws.write("slow.yaml", kSlowExperiment);
  const auto out = ws.path() / "results";
  const dpb::verify::ExperimentOverrides o{{"grid.n=[500]", "trials=2"}, {"baseline.dp_gauss_?[clip_constant=2]"}};
  const auto r = run({"run", config.string(), "--only", o.only[0], "--set", o.set[0], "--set", o.set[1], "--out", out.string()});
  REQUIRE(r.code == 0);
  const auto rows = stored_rows(out, config, o);
  REQUIRE(rows.size() == 2);
  for (const auto& row : rows) {
    CHECK(row.algorithm == "baseline.dp_gauss_1[clip_constant=2]");
    CHECK(row.cell_params.at("n") == 500);
  }
}

TEST_CASE("run of a tuned experiment says that alone it runs its placeholder", "[cli][run][tuning]") {
  const dpb::test::ScratchDir ws("run_cli");
  const auto config = ws.write("tuned.yaml", std::string(kSlowExperiment) + "tuned_by: my-tuning\n");
  const auto r = run({"run", config.string(), "--set", "trials=1", "--set", "grid.n=[300]", "--out", (ws.path() / "r").string()});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("slow is tuned by my-tuning: alone it runs its algorithms as listed"));
}

TEST_CASE("a run killed at a random point and resumed ends with exactly the rows of an uninterrupted run", "[cli][run][slow]") {
  const dpb::test::ScratchDir ws("run_cli");
  const auto config = ws.write("slow.yaml", kSlowExperiment);
  const auto reference = ws.path() / "reference", killed = ws.path() / "killed";
  REQUIRE(run({"run", config.string(), "--out", reference.string(), "--threads", "1"}).code == 0);

  const Child child = dpb::test::spawn_cli(ws.path(), {"run", config.string(), "--out", killed.string(), "--threads", "2"});
  wait_for_rows(child, killed, config);
  // A fixed-seed random delay moves the kill point around within the run without making it flaky.
  std::mt19937 gen(20261121);
  std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 50)(gen)));
  ::kill(child.pid, SIGKILL);
  CHECK(wait_for(child).code == -SIGKILL);
  const std::size_t kept = stored_count(killed, config);
  INFO("rows stored when killed: " << kept);
  CHECK(kept > 0);
  CHECK(kept < kSlowTasks);

  const auto resumed = run({"run", config.string(), "--out", killed.string(), "--threads", "2", "--resume"});
  CHECK(resumed.code == 0);
  CHECK(resumed.out.find(std::to_string(kept) + " already stored") != std::string::npos);
  CHECK(dpb::verify::test::same_rows(stored_rows(killed, config), stored_rows(reference, config)));
}

TEST_CASE("Ctrl-C finishes the trials in flight, commits and exits 130", "[cli][run]") {
  const dpb::test::ScratchDir ws("run_cli");
  const auto config = ws.write("slow.yaml", kSlowExperiment);
  const auto out = ws.path() / "results";
  const Child child = dpb::test::spawn_cli(ws.path(), {"run", config.string(), "--out", out.string(), "--threads", "2"});
  wait_for_rows(child, out, config);
  ::kill(child.pid, SIGINT);
  const Result r = wait_for(child);
  CHECK(r.code == 130);
  CHECK(r.out.find("interrupted: the finished trials are stored") != std::string::npos);
  const std::size_t kept = stored_count(out, config);
  CHECK(kept > 0);
  CHECK(kept < kSlowTasks);
  // Every row the interrupted run reported as run is stored: "N run now" equals the stored count.
  CHECK(r.out.find(std::to_string(kept) + " run now") != std::string::npos);
  CHECK(run({"run", config.string(), "--out", out.string(), "--resume"}).code == 0);
  CHECK(stored_count(out, config) == kSlowTasks);
}

TEST_CASE("verify runs a suite and prints its verdicts and coverage", "[cli][verify]") {
  const dpb::test::ScratchDir ws("run_cli");
  ws.write("slow.yaml", kSlowExperiment);
  const auto suite = ws.write("s.yaml", "name: s\nexperiments: [slow.yaml]\n");
  const auto r = run({"verify", "--suite", suite.string(), "--set", "trials=2", "--out", (ws.path() / "results").string()});
  CHECK(r.code == 0);
  CHECK(r.out.find("dpbounds verify: suite s (1 experiments)") != std::string::npos);
  CHECK(r.out.find("0 checks: 0 PASS, 0 FAIL, 0 INCONCLUSIVE") != std::string::npos);
  CHECK(fs::is_regular_file(ws.path() / "results" / "suite-s" / "summary.md"));
}

TEST_CASE("verify finds a named suite in the configs directory given by --configs", "[cli][verify]") {
  const dpb::test::ScratchDir ws("run_cli");
  fs::create_directories(ws.path() / "configs" / "suites");
  ws.write("configs/slow.yaml", kSlowExperiment);
  ws.write("configs/suites/mine.yaml", "name: mine\nexperiments: [../slow.yaml]\n");
  const auto out = (ws.path() / "results").string();
  const auto r = run({"verify", "--configs", (ws.path() / "configs").string(), "--suite", "mine", "--set", "trials=2", "--out", out});
  CHECK(r.code == 0);
  CHECK(r.out.find("dpbounds verify: suite mine (1 experiments)") != std::string::npos);
  // Another directory without suites/: one line naming where it looked and how to point elsewhere.
  const auto missing = run({"verify", "--configs", ws.path().string(), "--out", out});
  CHECK(missing.code == 2);
  CHECK(dpb::test::lines(missing.err) == 1);
  CHECK_THAT(missing.err, Catch::Contains((ws.path() / "suites").string()) && Catch::Contains("DPBOUNDS_CONFIGS"));
}

TEST_CASE("run, check, table and verify refuse bad input with one line and exit 2", "[cli][run]") {
  const dpb::test::ScratchDir ws("run_cli");
  const auto config = ws.write("slow.yaml", kSlowExperiment);
  const auto bad_yaml = ws.write("bad.yaml", std::string(kSlowExperiment) + "trails: 3\n");
  const std::vector<std::vector<std::string>> bad = {
      {"run", (ws.path() / "missing.yaml").string()},
      {"run", bad_yaml.string()},
      {"run", config.string(), "--set", "trials=lots"},
      {"run", config.string(), "--only", "liu2022.*"},
      {"run", config.string(), "--threads", "0"},
      {"run", config.string(), "--set", "grid.n=[1e12]"},  // observed: every trial stored std::bad_alloc
      {"run", config.string(), "--set", "model.d=100000"},
      {"check", (ws.path() / "nothing").string()},
      {"table", (ws.path() / "nothing").string(), "--format", "csv"},
      {"verify", "--suite", "no_such_suite"},
  };
  for (const auto& args : bad) {
    INFO(args[0] << " " << args[1]);
    const auto r = run(args);
    CHECK(r.code == 2);
    CHECK(dpb::test::lines(r.err) == 1);
    CHECK(r.err.rfind("dpbounds: error: ", 0) == 0);
  }
  CHECK_THAT(run({"run", bad_yaml.string()}).err, Catch::Contains(bad_yaml.string() + ":12:1: unknown key 'trails'"));
  CHECK_THAT(run({"run", config.string(), "--set", "grid.n=[1e12]"}).err,
             Catch::Contains("a trial at n = 1e+12, d = 10 needs about") && Catch::Contains("GiB of memory"));
  // Observed: a repeated key was accepted and its first value silently won.
  const auto twice = ws.write("twice.yaml", std::string(kSlowExperiment) + "trials: 3\n");
  const auto r = run({"run", twice.string(), "--out", (ws.path() / "out").string()});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains(twice.string() + ":12:1: duplicate key 'trials' (first at line 3)"));
  CHECK_FALSE(fs::exists(ws.path() / "out"));
  const auto nested = ws.write("nested.yaml", std::string(kSlowExperiment) + "audit:\n  - { algorithm: baseline.dp_gauss_1, n: 200, n: 300 }\n");
  CHECK_THAT(run({"run", nested.string()}).err, Catch::Contains(":13:") && Catch::Contains("duplicate key 'n'"));
}

TEST_CASE("a second run into a store holding its trials stops unless told --resume or --fresh", "[cli][run]") {
  // Observed: rerunning without --resume silently deleted stored trials.
  const dpb::test::ScratchDir ws("run_cli");
  const auto config = ws.write("slow.yaml", kSlowExperiment);
  const auto out = (ws.path() / "results").string();
  const auto args = [&](std::vector<std::string> more) {
    std::vector<std::string> all = {"run", config.string(), "--out", out, "--set", "trials=3"};
    all.insert(all.end(), more.begin(), more.end());
    return all;
  };
  REQUIRE(run(args({})).code == 0);
  const dpb::verify::ExperimentOverrides three{{"trials=3"}, {}};
  const auto before = stored_rows(out, config, three);
  REQUIRE(before.size() == 2 * 2 * 3);
  const auto again = run(args({}));
  CHECK(again.code == 2);
  CHECK(dpb::test::lines(again.err) == 1);
  CHECK_THAT(again.err, Catch::Contains("already holds 12 trials") && Catch::Contains("--resume") &&
                            Catch::Contains("--fresh"));
  CHECK(dpb::verify::test::same_rows(stored_rows(out, config, three), before));
  const auto both = run(args({"--resume", "--fresh"}));
  CHECK(both.code == 2);
  CHECK_THAT(both.err, Catch::Contains("--resume") && Catch::Contains("--fresh"));
  const auto resumed = run(args({"--resume"}));
  CHECK(resumed.code == 0);
  CHECK_THAT(resumed.out, Catch::Contains("0 run now (0 failed), 12 already stored"));
  const auto fresh = run(args({"--fresh"}));
  CHECK(fresh.code == 0);
  CHECK_THAT(fresh.out, Catch::Contains("12 run now (0 failed), 0 already stored"));
  CHECK(dpb::verify::test::same_rows(stored_rows(out, config, three), before));  // same content, same rows
}

TEST_CASE("a run that cannot start leaves nothing behind and says why in one line", "[cli][run]") {
  // Observed: --threads 0 left an empty store; --out under a file or in a read-only folder ended in
  // "internal error: filesystem error" with exit 1.
  const dpb::test::ScratchDir ws("run_cli");
  const auto config = ws.write("slow.yaml", kSlowExperiment);
  const auto out = ws.path() / "results";
  const auto zero = run({"run", config.string(), "--out", out.string(), "--threads", "0"});
  CHECK(zero.code == 2);
  CHECK_THAT(zero.err, Catch::Contains("--threads must be a whole number >= 1"));
  CHECK_FALSE(fs::exists(out));
  const auto file = ws.write("a_file", "not a folder\n");
  const auto under_file = run({"run", config.string(), "--out", (file / "results").string()});
  CHECK(under_file.code == 2);
  CHECK(dpb::test::lines(under_file.err) == 1);
  CHECK_THAT(under_file.err, Catch::Contains("cannot create the results folder"));
  if (::geteuid() != 0) {  // root writes anywhere: the read-only case cannot be staged as root
    const auto locked = ws.path() / "locked";
    fs::create_directories(locked);
    fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
    const auto read_only = run({"run", config.string(), "--out", (locked / "results").string()});
    CHECK(read_only.code == 2);
    CHECK(dpb::test::lines(read_only.err) == 1);
    CHECK_THAT(read_only.err, Catch::Contains("cannot create the results folder"));
    fs::permissions(locked, fs::perms::owner_all);
    CHECK(fs::is_empty(locked));
  }
}
