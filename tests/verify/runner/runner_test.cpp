#include "verify/runner/runner.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "verify/experiment/canonical.hpp"
#include "verify/experiment/experiment_fixture.hpp"
#include "verify/runner/runner_fixture.hpp"

using namespace dpb::verify;

namespace {

ResultSet run_with(const ExperimentSpec& spec, const std::filesystem::path& file, int threads) {
  ResultStore store(file);
  const auto outcome = run_experiment(spec, &store, {threads, StoredTrials::refuse, false, nullptr});
  return store.load(outcome.hash);
}

}  // namespace

TEST_CASE("every task runs once and stores one row", "[runner]") {
  const dpb::test::ScratchDir dir("runner_rows");
  const auto spec = test::parse_text(test::kTinyExperiment);
  ResultStore store(dir.path() / "r.sqlite");
  const auto outcome = run_experiment(spec, &store, {1, StoredTrials::refuse, false, nullptr});
  CHECK(outcome.tasks == 2 * 2 * 3);  // cells x algorithms x trials
  CHECK(outcome.executed == outcome.tasks);
  CHECK(outcome.skipped == 0);
  CHECK(outcome.failed == 0);
  CHECK_FALSE(outcome.interrupted);
  const auto rows = store.load(outcome.hash).rows;
  REQUIRE(rows.size() == outcome.tasks);
  for (const auto& row : rows) CHECK(row.metrics.size() == 2);
  CHECK_THROWS_AS(run_experiment(spec, &store, {0, StoredTrials::refuse, false, nullptr}), dpb::InvalidArgument);
}

TEST_CASE("1 and 2 threads store bit-identical rows", "[runner]") {
  const dpb::test::ScratchDir dir("runner_threads");
  const auto spec = test::parse_text(test::kTinyExperiment, {{"trials=6"}, {}});
  const auto one = run_with(spec, dir.path() / "one.sqlite", 1);
  const auto two = run_with(spec, dir.path() / "two.sqlite", 2);
  CHECK(one.rows.size() == 24);
  CHECK(test::same_rows(one.rows, two.rows));
}

TEST_CASE("a row depends on its task, not on which other algorithms run", "[runner]") {
  // Streams are named by (cell, trial) for data and (cell, label, trial) for noise: dropping an
  // algorithm from the experiment leaves every other row as it was.
  const dpb::test::ScratchDir dir("runner_streams");
  const auto both = run_with(test::parse_text(test::kTinyExperiment), dir.path() / "both.sqlite", 1).rows;
  const auto alone = run_with(test::parse_text(test::kTinyExperiment, {{}, {"baseline.dp_gauss_1"}}),
                              dir.path() / "alone.sqlite", 2).rows;
  std::vector<TrialRow> private_rows;
  for (const auto& row : both)
    if (row.algorithm != "baseline.nonprivate_pca") private_rows.push_back(row);
  REQUIRE(private_rows.size() == 6);
  CHECK(test::same_rows(private_rows, alone));
}

TEST_CASE("resume runs only the missing tasks and ends with the rows of a full run", "[runner]") {
  const dpb::test::ScratchDir dir("runner_resume");
  const auto spec = test::parse_text(test::kTinyExperiment);
  const auto full = run_with(spec, dir.path() / "full.sqlite", 1);
  // A store holding 5 of the rows, as an interrupted run leaves it.
  const std::string hash = content_hash(spec);
  ResultStore wiped(dir.path() / "wiped.sqlite");
  wiped.begin_run(hash, spec.name, "{}", "{}", true);
  wiped.insert(hash, std::vector<TrialRow>(full.rows.begin(), full.rows.begin() + 5));
  const auto resumed = run_experiment(spec, &wiped, {2, StoredTrials::resume, false, nullptr});
  CHECK(resumed.skipped == 5);
  CHECK(resumed.executed == full.rows.size() - 5);
  CHECK(test::same_rows(wiped.load(resumed.hash).rows, full.rows));
  // Fresh: the stored rows are dropped and everything runs again.
  const auto again = run_experiment(spec, &wiped, {1, StoredTrials::fresh, false, nullptr});
  CHECK(again.skipped == 0);
  CHECK(again.executed == full.rows.size());
}

TEST_CASE("a run into a store holding this experiment's trials neither resumes nor deletes unless told",
          "[runner]") {
  // Observed: rerunning without --resume silently deleted stored trials (6,853 rows fell to 3,351).
  const dpb::test::ScratchDir dir("runner_refuse");
  const auto spec = test::parse_text(test::kTinyExperiment);
  const auto file = dir.path() / "r.sqlite";
  const auto stored = run_with(spec, file, 1).rows;
  ResultStore store(file);
  CHECK_THROWS_WITH(run_experiment(spec, &store, {1, StoredTrials::refuse, false, nullptr}),
                    Catch::Contains("already holds 12 trials of experiment 'tiny'") &&
                        Catch::Contains("--resume") && Catch::Contains("--fresh"));
  CHECK(test::same_rows(store.load(content_hash(spec)).rows, stored));
  // Another experiment in the same store is not in the way.
  CHECK(run_experiment(test::parse_text(test::kTinyExperiment, {{"seed=8"}, {}}), &store,
                       {1, StoredTrials::refuse, false, nullptr})
            .executed == 12);
}

namespace {
// The Oja family on samples drawn 256 at a time (4000 samples: 16 batches) as they are read.
const char* const kStreamedExperiment = R"(name: streamed
seed: 7
trials: 3
model: { name: dugler_k1, d: 3, lambda1: 1, sigma: 0.1 }
grid: { n: [4000] }
privacy: { epsilon: 0.9, delta: 1.0e-6 }
stream_batch: 256
algorithms:
  - dugler2026.oja
  - liu2022.oja
  - liu2022.private_oja
metrics: [projector_fro]
)";
}  // namespace

TEST_CASE("streamed samples: rows bit-identical across threads, a key of their own, a shuffled pass refused",
          "[runner][streamed]") {
  const dpb::test::ScratchDir dir("runner_streamed");
  const auto streamed = test::parse_text(kStreamedExperiment);
  CHECK(streamed.stream_batch == 256);
  const auto one = run_with(streamed, dir.path() / "one.sqlite", 1);
  const auto two = run_with(streamed, dir.path() / "two.sqlite", 2);
  REQUIRE(one.rows.size() == 9);
  CHECK(test::same_rows(one.rows, two.rows));
  for (const auto& row : one.rows) {
    if (row.algorithm == "liu2022.private_oja") {
      // Line 1 shuffles: every step would draw a batch of its own.
      CHECK_THAT(row.error, Catch::Contains("out of order"));
    } else {
      CHECK(row.error.empty());
      CHECK(row.metrics.at("projector_fro") < 0.5);  // it learned from the streamed samples (chance: 1.15)
    }
  }
  // The same experiment drawn whole is another experiment (other numbers), never resumed into.
  auto whole = test::parse_text(kStreamedExperiment);
  whole.stream_batch = 0;
  CHECK(content_hash(whole) != content_hash(streamed));
}
