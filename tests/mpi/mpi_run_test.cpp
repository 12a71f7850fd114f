// `dpbounds` under `mpirun -np 2` (docs/cluster.md): the rows rank 0 stores are those of a single process
// with the same seed, --resume hands out only the missing tasks, and output and exit codes come once,
// from rank 0. Built only when CMake found MPI and its mpirun (DPB_MPIEXEC, compiled in).
#include <signal.h>
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/run_cli.hpp"
#include "cli/spawn_cli.hpp"
#include "tests/support/text.hpp"
#include "verify/experiment/canonical.hpp"
#include "verify/experiment/experiment_fixture.hpp"
#include "verify/experiment/parse.hpp"
#include "verify/runner/runner_fixture.hpp"
#include "verify/store/store.hpp"

namespace fs = std::filesystem;
using dpb::test::occurrences;
using dpb::verify::TrialRow;

namespace {

// Two ranks on any machine: as root in containers and CI, and more ranks than cores where needed.
const std::string kMpirun = std::string("'") + DPB_MPIEXEC + "' -np 2 --allow-run-as-root --oversubscribe";

// The tiny experiment at 40 trials (2 cells x 2 algorithms): enough tasks that both ranks get many.
const std::string kExperiment = dpb::verify::test::tiny_with("trials:", "trials: 40");
constexpr std::size_t kTasks = 2 * 2 * 40;

fs::path write(const fs::path& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir / name) << text;
  return dir / name;
}

std::vector<TrialRow> stored_rows(const fs::path& out, const fs::path& config) {
  const auto spec = dpb::verify::load_experiment(config);
  dpb::verify::ResultStore store(out / spec.name / "results.sqlite");
  return store.load(dpb::verify::content_hash(spec)).rows;
}

// How many rows the run has committed so far (0 before its store exists).
std::size_t committed(const fs::path& out, const fs::path& config) {
  const auto spec = dpb::verify::load_experiment(config);
  const auto file = out / spec.name / "results.sqlite";
  return fs::exists(file) ? dpb::verify::ResultStore(file).finished(dpb::verify::content_hash(spec)).size() : 0;
}

// The processes `parent` started (mpirun's ranks on this machine), from /proc.
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string pid, name, state;
    pid_t ppid = 0;
    // "pid (comm) state ppid ...": dpbounds' comm has no spaces
    if (stat >> pid >> name >> state >> ppid && ppid == parent) children.push_back(std::stoi(pid));
  }
  return children;
}

std::string run_args(const fs::path& config, const fs::path& out) {
  return "run '" + config.string() + "' --threads 1 --out '" + out.string() + "'";
}

}  // namespace

TEST_CASE("mpirun -np 2 run stores the rows of a single-process run and reports once", "[mpi]") {
  const dpb::test::ScratchDir dir("mpi_rows");
  const auto config = write(dir.path(), "ranks.yaml", kExperiment);
  REQUIRE(dpb::test::run_cli(run_args(config, dir.path() / "one")).code == 0);
  const auto r = dpb::test::run_cli(run_args(config, dir.path() / "two"), kMpirun);
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(occurrences(r.out, "tiny: 160 tasks, 160 run now (0 failed), 0 already stored") == 1);
  CHECK(occurrences(r.out, "report ") == 1);
  // Progress counts every rank's trials, and only rank 0 prints it.
  CHECK(occurrences(r.err, "cell 1/2 (n=200): 80 trials") + occurrences(r.err, "cell 1/2 (n=400): 80 trials") == 1);
  CHECK(occurrences(r.err, "cell 2/2") == 1);
  const auto rows = stored_rows(dir.path() / "two", config);
  CHECK(rows.size() == kTasks);
  CHECK(dpb::verify::test::same_rows(rows, stored_rows(dir.path() / "one", config)));
}

TEST_CASE("mpirun -np 2 --resume runs only the missing tasks and ends with a single process's rows", "[mpi]") {
  const dpb::test::ScratchDir dir("mpi_resume");
  const auto config = write(dir.path(), "ranks.yaml", kExperiment);
  const auto reference = dir.path() / "one", partial = dir.path() / "partial";
  REQUIRE(dpb::test::run_cli(run_args(config, reference)).code == 0);
  // A store holding a scattered third of the rows, as a killed run leaves it.
  fs::copy(reference, partial, fs::copy_options::recursive);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open((partial / "tiny" / "results.sqlite").c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "DELETE FROM trials WHERE trial % 3 != 0", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  const std::size_t kept = stored_rows(partial, config).size();
  REQUIRE(kept > 0);
  REQUIRE(kept < kTasks);

  const auto r = dpb::test::run_cli(run_args(config, partial) + " --resume", kMpirun);
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(occurrences(r.out, std::to_string(kTasks - kept) + " run now (0 failed), " + std::to_string(kept) +
                               " already stored") == 1);
  CHECK(dpb::verify::test::same_rows(stored_rows(partial, config), stored_rows(reference, config)));
}

TEST_CASE("under mpirun, verify prints its verdicts once, a bad config or a one-process verb is one line, exit 2", "[mpi][slow]") {
  const dpb::test::ScratchDir dir("mpi_verify");
  write(dir.path(), "ranks.yaml", kExperiment);
  const auto suite = write(dir.path(), "s.yaml", "name: s\nexperiments: [ranks.yaml]\n");
  const auto out = dir.path() / "results";
  const auto v = dpb::test::run_cli("verify --suite '" + suite.string() + "' --set trials=3 --threads 1 --out '" +
                                        out.string() + "'",
                                    kMpirun);
  INFO(v.err);
  CHECK(v.code == 0);
  CHECK(occurrences(v.out, "dpbounds verify: suite s (1 experiments)") == 1);
  CHECK(occurrences(v.out, "0 checks: 0 PASS, 0 FAIL, 0 INCONCLUSIVE") == 1);
  CHECK(fs::is_regular_file(out / "suite-s" / "summary.md"));

  const auto bad = write(dir.path(), "bad.yaml", kExperiment + "trails: 3\n");
  const auto r = dpb::test::run_cli(run_args(bad, out), kMpirun);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  // Both ranks read the bad file; rank 0 alone says so (mpirun adds its own notice after it).
  CHECK(occurrences(r.err, "dpbounds: error: ") == 1);
  CHECK(occurrences(r.err, "unknown key 'trails'") == 1);

  // A verb that does not spread over ranks refuses rather than running twice.
  const auto list = dpb::test::run_cli("list algorithms", kMpirun);
  CHECK(list.code == 2);
  CHECK(list.out.empty());
  CHECK(occurrences(list.err, "dpbounds: error: 'dpbounds list' runs as one process: start it without mpirun") == 1);
}

TEST_CASE("mpirun -np 2 audit spreads the mechanism runs and gives a single process's audit", "[mpi][slow]") {
  const std::string audit = "audit baseline.dp_gauss_1 --epsilon 1 --delta 1e-5 --n 100 --d 5 --trials 300 --json";
  const auto one = dpb::test::run_cli(audit), two = dpb::test::run_cli(audit, kMpirun);
  INFO(two.err);
  REQUIRE(one.code == 0);
  REQUIRE(two.code == 0);
  // One JSON document (rank 0's), equal to the single process's but for the measured speed.
  auto single = nlohmann::json::parse(one.out), spread = nlohmann::json::parse(two.out);
  single.erase("runs_per_second");
  spread.erase("runs_per_second");
  CHECK(spread == single);
  CHECK(spread.at("trials") == 300);
  CHECK(spread.at("runs") == 601);  // and the first run on D, which reads the ledger
  // Adaptive runs: rank 0 decides when to stop, and every rank stops at the same batch (no deadlock).
  const auto adaptive =
      dpb::test::run_cli("audit baseline.dp_gauss_1 --epsilon 1 --delta 1e-5 --n 100 --d 5 --seconds 2 --json", kMpirun);
  INFO(adaptive.err);
  REQUIRE(adaptive.code == 0);
  CHECK(nlohmann::json::parse(adaptive.out).at("trials").get<long>() >= 1000);
}

TEST_CASE("mpirun -np 2 audit whose score fails on some runs ends on every rank with one line, exit 2",
          "[mpi][slow]") {
  // DP-Gauss-2 releases eigenvalues on one branch only, so second_moment_lr fails on the runs of the other: a
  // rank whose job threw used to leave the exchange while the other waited for it (or, on one process, the
  // exception escaped OpenMP and terminated the program).
  const std::string audit =
      "audit baseline.dp_gauss_2 --neighbours orthogonal_axes --score second_moment_lr --model-param r=1 "
      "--model-param lambda=1e-6 --model-param sigma2=1e-6 --n 50 --d 3 --k 2 --epsilon 1 --delta 0.05 "
      "--canary-scale 1000 --trials 2000";
  for (const auto& launcher : {std::string(), kMpirun}) {
    const auto r = launcher.empty() ? dpb::test::run_cli(audit) : dpb::test::run_cli(audit, launcher);
    INFO(launcher << ": " << r.err);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(occurrences(r.err, "dpbounds: error: score 'second_moment_lr'") == 1);
  }
}

TEST_CASE("SIGTERM to every rank (a job's time limit) commits what finished, --resume completes the run", "[mpi][slow]") {
  const dpb::test::ScratchDir dir("mpi_interrupt");
  // 12000 tasks: a second or more of work, so that the signal lands mid-run.
  const auto config = write(dir.path(), "ranks.yaml", dpb::verify::test::tiny_with("trials:", "trials: 3000"));
  const auto reference = dir.path() / "one", out = dir.path() / "two";
  REQUIRE(dpb::test::run_cli(run_args(config, reference)).code == 0);
  const std::vector<std::string> launcher = {DPB_MPIEXEC, "-np", "2", "--allow-run-as-root", "--oversubscribe"};
  const auto child = dpb::test::spawn_cli(dir.path(), {"run", config.string(), "--threads", "1", "--out", out.string()}, launcher);
  dpb::test::wait_while_running(child, [&] { return committed(out, config) > 0; });
  // Slurm's scancel and time limit signal every process of the job. (A Ctrl-C reaches only mpirun, which
  // passes it on as SIGTERM after a second or so: the same path, later; docs/cluster.md.)
  const auto ranks = children_of(child.pid);
  REQUIRE(ranks.size() == 2);
  for (const pid_t rank : ranks) ::kill(rank, SIGTERM);
  const auto r = dpb::test::wait_for(child);
  INFO(r.err);
  CHECK(r.code == 130);  // every rank exits as interrupted, and mpirun passes that on
  CHECK(occurrences(r.out, "interrupted: the finished trials are stored") == 1);
  const std::size_t kept = committed(out, config);
  CHECK(kept > 0);
  CHECK(kept < 2 * 2 * 3000);
  // Every row the ranks reported as run reached the store.
  CHECK(occurrences(r.out, std::to_string(kept) + " run now") == 1);

  const auto resumed = dpb::test::run_cli(run_args(config, out) + " --resume", kMpirun);
  CHECK(resumed.code == 0);
  CHECK(occurrences(resumed.out, std::to_string(kept) + " already stored") == 1);
  CHECK(dpb::verify::test::same_rows(stored_rows(out, config), stored_rows(reference, config)));
}
