#include "verify/runner/runner.hpp"

#include <omp.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <fmt/format.h>
#include <mutex>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "verify/experiment/canonical.hpp"
#include "verify/experiment/settings.hpp"
#include "verify/runner/cells.hpp"
#include "verify/runner/progress.hpp"
#include "verify/runner/signals.hpp"
#include "verify/runner/trial.hpp"

namespace dpb::verify {
namespace {

// A batch is committed when it holds this many rows or its oldest row waited this long: a killed run
// loses the trials in flight plus at most this much finished work.
constexpr std::size_t kBatchRows = 256;
constexpr std::chrono::milliseconds kBatchDelay{200};

struct Task {
  std::size_t cell, algorithm, trial;
};

// Finished rows on their way to the store; every method runs under the runner's lock.
class Batcher {
 public:
  Batcher(ResultStore& store, std::string hash) : store_(store), hash_(std::move(hash)) {}
  void add(TrialRow row) {
    if (rows_.empty()) oldest_ = std::chrono::steady_clock::now();
    rows_.push_back(std::move(row));
    if (rows_.size() >= kBatchRows || std::chrono::steady_clock::now() - oldest_ >= kBatchDelay) flush();
  }
  void flush() {
    store_.insert(hash_, rows_);
    rows_.clear();
  }

 private:
  ResultStore& store_;
  std::string hash_;
  std::vector<TrialRow> rows_;
  std::chrono::steady_clock::time_point oldest_;
};

}  // namespace

int default_threads() { return omp_get_max_threads(); }

RunOutcome run_experiment(const ExperimentSpec& spec, ResultStore& store, const RunOptions& options) {
  if (options.threads < 1) throw InvalidArgument(fmt::format("threads must be >= 1, got {}", options.threads));
  RunOutcome outcome;
  outcome.hash = content_hash(spec);
  store.begin_run(outcome.hash, spec.name, canonical_form(spec).dump(), to_json(settings_of(spec)).dump(),
                  !options.resume);
  const std::set<TaskKey> stored = store.finished(outcome.hash);

  const std::vector<CellContext> cells = make_cells(spec);
  std::vector<std::unique_ptr<alg::Estimator>> estimators;
  for (const auto& a : spec.algorithms) estimators.push_back(alg::algorithm_registry().make(a.id, a.given));

  // Cell-major order, so that cells finish one after another and the per-cell progress lines flow.
  std::vector<Task> tasks;
  std::vector<std::size_t> pending(cells.size(), 0);
  std::vector<std::string> labels;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    labels.push_back(cells[c].label);
    for (std::size_t t = 0; t < std::size_t(spec.trials); ++t)
      for (std::size_t a = 0; a < spec.algorithms.size(); ++a) {
        ++outcome.tasks;
        if (stored.count({c, spec.algorithms[a].label, t})) {
          ++outcome.skipped;
          continue;
        }
        tasks.push_back({c, a, t});
        ++pending[c];
      }
  }

  Progress progress(pending, labels, options.terminal, options.progress);
  Batcher batcher(store, outcome.hash);
  std::mutex lock;
  std::exception_ptr store_failure;  // an exception must not leave an OpenMP region: kept, rethrown after
  std::atomic<bool> stop{false};
  InterruptGuard guard;
  const auto count = static_cast<std::ptrdiff_t>(tasks.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(options.threads)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    if (InterruptGuard::interrupted() || stop) continue;  // OpenMP loops cannot break: skip the rest
    const Task& task = tasks[static_cast<std::size_t>(i)];
    TrialRow row = run_trial(spec, task.cell, cells[task.cell], spec.algorithms[task.algorithm],
                             *estimators[task.algorithm], task.trial);
    const std::lock_guard<std::mutex> hold(lock);
    try {
      ++outcome.executed;
      outcome.failed += !row.error.empty();
      progress.finished(task.cell, !row.error.empty());
      batcher.add(std::move(row));
    } catch (...) {
      if (!store_failure) store_failure = std::current_exception();
      stop = true;
    }
  }
  if (store_failure) std::rethrow_exception(store_failure);
  batcher.flush();
  progress.close();
  outcome.interrupted = InterruptGuard::interrupted();
  return outcome;
}

}  // namespace dpb::verify
