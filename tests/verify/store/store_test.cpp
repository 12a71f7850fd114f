#include "verify/store/store.hpp"

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "verify/runner/runner_fixture.hpp"

using namespace dpb::verify;

namespace {

TrialRow row(std::size_t cell, const std::string& algorithm, std::size_t trial, double value) {
  return {cell, {{"n", 100.0 * double(cell + 1)}, {"epsilon", 0.1}}, algorithm, trial, {{"sin", value}}, "", 0.5,
          {{"bottom", double(trial % 2)}}};
}

}  // namespace

TEST_CASE("rows round-trip bit for bit, ordered by (cell, algorithm, trial)", "[store]") {
  const dpb::test::ScratchDir dir("store_rows");
  ResultStore store(dir.path() / "sub" / "results.sqlite");  // missing directories are created
  store.begin_run("h1", "exp", "{}", "{\"seed\":1}", true);
  const double awkward = std::nextafter(1.0 / 3.0, 1.0);  // not representable in 15 digits
  TrialRow failed = row(0, "b", 0, 0);
  failed.metrics.clear();
  failed.error = "eps must be > 0";
  store.insert("h1", {row(1, "a", 0, 0.25), row(0, "b", 1, awkward), failed, row(0, "a", 0, 1e-300)});
  const ResultSet set = store.load("h1");
  CHECK(set.experiment == "exp");
  CHECK(set.hash == "h1");
  REQUIRE(set.rows.size() == 4);
  CHECK(set.rows[0].algorithm == "a");
  CHECK(set.rows[1].algorithm == "b");
  CHECK(set.rows[1].trial == 0);
  CHECK(set.rows[1].error == "eps must be > 0");
  CHECK(set.rows[1].metrics.empty());
  CHECK(set.rows[2].metrics.at("sin") == awkward);
  CHECK(set.rows[3].cell_params.at("n") == 200);
  CHECK(set.rows[0].metrics.at("sin") == 1e-300);
  CHECK(set.rows[0].seconds == 0.5);
  CHECK(store.finished("h1") == std::set<TaskKey>{{0, "a", 0}, {0, "b", 0}, {0, "b", 1}, {1, "a", 0}});
  CHECK(store.settings("h1") == "{\"seed\":1}");
  CHECK(set.rows[2].diagnostics == std::map<std::string, double>{{"bottom", 1}});
}

TEST_CASE("a store written before rows kept diagnostics opens, and its old rows read as none", "[store]") {
  const dpb::test::ScratchDir dir("store_old_schema");
  const auto file = dir.path() / "results.sqlite";
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(file.string().c_str(), &db) == SQLITE_OK);
    const char* old_schema =
        "CREATE TABLE runs(hash TEXT PRIMARY KEY, experiment TEXT NOT NULL, canonical TEXT NOT NULL, settings TEXT "
        "NOT NULL, started INTEGER NOT NULL);"
        "CREATE TABLE trials(hash TEXT NOT NULL, cell INTEGER NOT NULL, algorithm TEXT NOT NULL, trial INTEGER NOT "
        "NULL, cell_params TEXT NOT NULL, metrics TEXT NOT NULL, error TEXT NOT NULL, seconds REAL NOT NULL, "
        "PRIMARY KEY(hash, cell, algorithm, trial));"
        "INSERT INTO runs VALUES('h', 'old', '{}', '{}', 1);"
        "INSERT INTO trials VALUES('h', 0, 'a', 0, '{\"n\":100}', '{\"sin\":0.5}', '', 0.1);";
    REQUIRE(sqlite3_exec(db, old_schema, nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
  }
  ResultStore store(file);
  auto set = store.load("h");
  REQUIRE(set.rows.size() == 1);
  CHECK(set.rows[0].diagnostics.empty());
  store.insert("h", {row(0, "b", 0, 0.25)});
  CHECK(store.load("h").rows[1].diagnostics.at("bottom") == 0);
}

TEST_CASE("rows stored with epsilon under both of its old names read back with one", "[store]") {
  // Issue 24: cells carried "eps" (the theorems' name) beside "epsilon" until the theorems read "epsilon"; an
  // old baseline then matched no cell of a new run in `dpbounds compare`.
  const dpb::test::ScratchDir dir("store_old_eps");
  ResultStore store(dir.path() / "results.sqlite");
  store.begin_run("h1", "exp", "{}", "{\"seed\":1}", true);
  TrialRow old = row(0, "a", 0, 0.5), fresh = row(0, "a", 1, 0.5);
  old.cell_params["eps"] = 0.1;
  store.insert("h1", {old, fresh});
  const ResultSet set = store.load("h1");
  REQUIRE(set.rows.size() == 2);
  CHECK(set.rows[0].cell_params == set.rows[1].cell_params);
  CHECK(set.rows[0].cell_params.count("eps") == 0);
  CHECK(set.rows[0].cell_params.at("epsilon") == 0.1);
}

TEST_CASE("hashes never mix, a fresh begin drops only its own rows, the latest run is found", "[store]") {
  const dpb::test::ScratchDir dir("store_hashes");
  const auto file = dir.path() / "results.sqlite";
  {
    ResultStore store(file);
    store.begin_run("old", "exp", "{}", "{}", true);
    store.insert("old", {row(0, "a", 0, 1)});
    store.begin_run("new", "exp", "{}", "{}", true);
    store.insert("new", {row(0, "a", 0, 2), row(0, "a", 1, 3)});
    CHECK(store.load("old").rows.size() == 1);
    CHECK(store.latest_hash() == "new");
    store.begin_run("old", "exp", "{}", "{}", false);  // resuming makes it the latest again, keeps rows
    CHECK(store.latest_hash() == "old");
    CHECK(store.finished("old").size() == 1);
    store.begin_run("old", "exp", "{}", "{}", true);
    CHECK(store.finished("old").empty());
    CHECK(store.finished("new").size() == 2);
    store.begin_run("new", "exp", "{}", "{}", false);
  }
  // Reopened from its directory: the latest run.
  const StoredRun latest = load_latest_run(dir.path());
  CHECK(latest.results.hash == "new");
  CHECK(latest.results.rows.size() == 2);
  CHECK(store_path(dir.path()) == file);
  CHECK(store_path(file) == file);
}

TEST_CASE("what is not a store is refused with a clear error", "[store]") {
  const dpb::test::ScratchDir dir("store_bad");
  CHECK_THROWS_WITH(load_latest_run(dir.path()), Catch::Contains("no results store here"));
  const auto junk = dir.path() / "junk.sqlite";
  std::ofstream(junk) << "this is not a database, but it is long enough to have a header of sorts.....";
  CHECK_THROWS_AS(ResultStore(junk), dpb::InvalidArgument);
  ResultStore empty(dir.path() / "empty.sqlite");
  CHECK_THROWS_AS(empty.latest_hash(), dpb::InvalidArgument);
  CHECK_THROWS_AS(empty.load("nope"), dpb::InvalidArgument);
}

TEST_CASE("two processes opening a new store at once both open it", "[store]") {
  // Switching a new file to WAL needs an exclusive lock, and SQLite refuses it at once, without its busy
  // wait, while another process is switching too. A run's rank 0 and a `check` (or a test polling the
  // store) starting together lost one of them (seen in CI: the run exited at once, nothing stored).
  // Two children wait on one pipe and open the same empty file when it closes. The old opener failed 12 to
  // 22 of these 400 openings in each of four runs, so a pass by chance is out of reach.
  const dpb::test::ScratchDir dir("store_race");
  int failures = 0;
  for (int pair = 0; pair < 200; ++pair) {
    const auto file = dir.path() / (std::to_string(pair) + ".sqlite");
    std::ofstream{file};
    int go[2];
    REQUIRE(::pipe(go) == 0);
    pid_t children[2];
    for (pid_t& child : children) {
      child = ::fork();
      REQUIRE(child >= 0);
      if (child == 0) {
        ::close(go[1]);
        char byte;
        [[maybe_unused]] const auto got = ::read(go[0], &byte, 1);  // 0 at end of file: the pipe closed
        try {
          ResultStore store(file);
        } catch (const std::exception&) {
          ::_exit(1);
        }
        ::_exit(0);
      }
    }
    ::close(go[0]);
    ::close(go[1]);
    for (const pid_t child : children) {
      int status = 0;
      REQUIRE(::waitpid(child, &status, 0) == child);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failures;
    }
  }
  CHECK(failures == 0);
}
