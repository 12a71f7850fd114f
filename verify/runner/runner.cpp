#include "verify/runner/runner.hpp"

#include <omp.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <fmt/format.h>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "verify/distributed/ranks.hpp"
#include "verify/distributed/row_batch.hpp"
#include "verify/experiment/canonical.hpp"
#include "verify/experiment/grid.hpp"
#include "verify/experiment/settings.hpp"
#include "verify/runner/cells.hpp"
#include "verify/runner/progress.hpp"
#include "verify/runner/signals.hpp"
#include "verify/runner/trial.hpp"

namespace dpb::verify {
namespace {

// A batch is delivered when it holds this many rows or its oldest row waited this long: a killed run
// loses the trials in flight plus at most this much finished work.
constexpr std::size_t kBatchRows = 256;
constexpr std::chrono::milliseconds kBatchDelay{200};

struct Task {
  std::size_t cell, algorithm, trial;
};

// Finished rows on their way to `deliver` (the store on rank 0; rank 0 from the other ranks); every
// method runs under the runner's lock.
class Batcher {
 public:
  explicit Batcher(std::function<void(std::vector<TrialRow>&&)> deliver) : deliver_(std::move(deliver)) {}
  void add(TrialRow row) {
    if (rows_.empty()) oldest_ = std::chrono::steady_clock::now();
    rows_.push_back(std::move(row));
    if (rows_.size() >= kBatchRows || std::chrono::steady_clock::now() - oldest_ >= kBatchDelay) flush();
  }
  void flush() {
    if (!rows_.empty()) deliver_(std::exchange(rows_, {}));
  }
  std::vector<TrialRow> take() { return std::exchange(rows_, {}); }

 private:
  std::function<void(std::vector<TrialRow>&&)> deliver_;
  std::vector<TrialRow> rows_;
  std::chrono::steady_clock::time_point oldest_;
};

// '1' for each task, in the runner's task order, whose row `store` holds (none when fresh: the run's old
// rows are deleted). Throws dpb::InvalidArgument, changing nothing, when rows are stored and `what` is
// refuse.
std::string stored_task_flags(const ExperimentSpec& spec, std::size_t cells, ResultStore& store,
                              const std::string& hash, StoredTrials what) {
  if (const std::size_t count = store.finished(hash).size(); count > 0 && what == StoredTrials::refuse)
    throw InvalidArgument(fmt::format(
        "{} already holds {} trials of experiment '{}' (this exact content); rerun with --resume to keep them "
        "and run only the rest, or with --fresh to delete them and start over",
        store.file(), count, spec.name));
  store.begin_run(hash, spec.name, canonical_form(spec).dump(), to_json(settings_of(spec)).dump(),
                  what == StoredTrials::fresh);
  const std::set<TaskKey> stored = store.finished(hash);
  std::string flags;
  for (std::size_t c = 0; c < cells; ++c)
    for (std::size_t t = 0; t < std::size_t(spec.trials); ++t)
      for (const auto& algorithm : spec.algorithms) flags += stored.count({c, algorithm.label, t}) ? '1' : '0';
  return flags;
}

// Rank 0 tells every rank how the run ended, so that they all stop (or go on) together.
void share_outcome(RunOutcome& outcome) {
  std::string text = nlohmann::json{{"executed", outcome.executed},
                                    {"failed", outcome.failed},
                                    {"interrupted", outcome.interrupted}}
                         .dump();
  ranks::broadcast(text);
  const auto j = nlohmann::json::parse(text);
  outcome.executed = j.at("executed").get<std::size_t>();
  outcome.failed = j.at("failed").get<std::size_t>();
  outcome.interrupted = j.at("interrupted").get<bool>();
}

}  // namespace

int default_threads() { return omp_get_max_threads(); }

ThreadCount::ThreadCount(int threads) : previous_(omp_get_max_threads()) { omp_set_num_threads(threads); }
ThreadCount::~ThreadCount() { omp_set_num_threads(previous_); }

void check_run_options(const RunOptions& options) {
  if (options.threads < 1)
    throw InvalidArgument(fmt::format("--threads must be a whole number >= 1, got {}", options.threads));
}

RunOutcome run_experiment(const ExperimentSpec& spec, ResultStore* store, const RunOptions& options) {
  check_run_options(options);
  const bool root = ranks::is_root();
  if (root != (store != nullptr)) throw std::logic_error("run_experiment: rank 0, and only rank 0, has the store");
  RunOutcome outcome;
  outcome.hash = content_hash(spec);
  // Every rank lists the same tasks; rank 0 says which of them are stored already, or why it refuses to
  // run. First, so that the ranks meet here before anything else can fail: an error after it strikes
  // every rank at once.
  constexpr char kRefused = '!';  // flags are '0' and '1': a leading '!' carries rank 0's refusal
  std::string stored;
  if (root) try {
      stored = stored_task_flags(spec, expand_grid(spec.grid).size(), *store, outcome.hash, options.stored);
    } catch (const InvalidArgument& e) {
      stored = kRefused + std::string(e.what());
    }
  ranks::broadcast(stored);
  if (!stored.empty() && stored[0] == kRefused) throw InvalidArgument(stored.substr(1));
  const std::vector<CellContext> cells = make_cells(spec);
  std::vector<std::unique_ptr<alg::Estimator>> estimators;
  for (const auto& a : spec.algorithms) estimators.push_back(alg::algorithm_registry().make(a.id, a.given));

  // Cell-major order, so that cells finish one after another and the per-cell progress lines flow. The
  // (cell, trial) pairs with pending tasks are dealt to the ranks in turn, every algorithm of a pair to
  // the same rank: each rank gets the same mix of cells and of algorithms, cheap and costly.
  std::vector<Task> mine;
  std::vector<std::size_t> pending(cells.size(), 0);
  std::vector<std::string> labels;
  std::size_t dealt = 0;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    labels.push_back(cells[c].label);
    for (std::size_t t = 0; t < std::size_t(spec.trials); ++t) {
      const bool to_me = dealt % std::size_t(ranks::size()) == std::size_t(ranks::rank());
      bool any_pending = false;
      for (std::size_t a = 0; a < spec.algorithms.size(); ++a) {
        if (stored[outcome.tasks++] == '1') {
          ++outcome.skipped;
          continue;
        }
        if (to_me) mine.push_back({c, a, t});
        ++pending[c];
        any_pending = true;
      }
      dealt += any_pending;
    }
  }

  Progress progress(pending, labels, options.terminal, root ? options.progress : nullptr);
  // Rank 0 takes every finished row, its own and those the other ranks send.
  Batcher batcher = root ? Batcher([&](std::vector<TrialRow>&& rows) { store->insert(outcome.hash, rows); })
                         : Batcher([](std::vector<TrialRow>&& rows) { ranks::send_to_root(encode({std::move(rows)})); });
  auto take = [&](TrialRow&& row) {
    ++outcome.executed;
    outcome.failed += !row.error.empty();
    progress.finished(row.cell, !row.error.empty());
    batcher.add(std::move(row));
  };
  int ranks_finished = 1;  // rank 0 itself
  bool others_interrupted = false;
  auto take_batch = [&](const std::string& bytes) {
    RowBatch batch = decode_row_batch(bytes);
    for (auto& row : batch.rows) take(std::move(row));
    ranks_finished += batch.last;
    others_interrupted = others_interrupted || batch.interrupted;
  };

  std::mutex lock;
  std::exception_ptr store_failure;  // an exception must not leave an OpenMP region: kept, rethrown after
  std::atomic<bool> stop{false};
  InterruptGuard guard;
  const auto count = static_cast<std::ptrdiff_t>(mine.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(options.threads)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    if (InterruptGuard::interrupted() || stop) continue;  // OpenMP loops cannot break: skip the rest
    const Task& task = mine[static_cast<std::size_t>(i)];
    TrialRow row = run_trial(spec, task.cell, cells[task.cell], spec.algorithms[task.algorithm],
                             *estimators[task.algorithm], task.trial);
    const std::lock_guard<std::mutex> hold(lock);
    try {
      if (!root) {
        batcher.add(std::move(row));
        ranks::advance_sends();
        continue;
      }
      take(std::move(row));
      while (const auto bytes = ranks::receive(false)) take_batch(*bytes);
    } catch (...) {
      if (!store_failure) store_failure = std::current_exception();
      stop = true;
    }
  }
  if (store_failure) std::rethrow_exception(store_failure);
  if (root) {
    while (ranks_finished < ranks::size()) take_batch(*ranks::receive(true));
    batcher.flush();
    progress.close();
    outcome.interrupted = InterruptGuard::interrupted() || others_interrupted;
  } else {
    ranks::send_to_root(encode({batcher.take(), true, InterruptGuard::interrupted()}));
    ranks::finish_sends();
  }
  share_outcome(outcome);
  return outcome;
}

}  // namespace dpb::verify
