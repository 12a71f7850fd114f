#pragma once
// The trial runner (DESIGN.md §5 "Runner"): schedules every (cell, algorithm, trial) task not yet
// stored over MPI ranks (under mpirun, verify/distributed/ranks.hpp) and each rank's OpenMP threads, and
// hands finished rows to the store in batches, one transaction each. Results are bit-identical for any
// number of threads and ranks: every random number comes from a counter-based stream named by the task
// (verify/runner/trial.hpp), never from the thread or rank that runs it.
#include <cstdio>
#include <string>

#include "verify/experiment/spec.hpp"
#include "verify/store/store.hpp"

namespace dpb::verify {

// The threads a run uses unless told: OpenMP's default (OMP_NUM_THREADS, else every core).
int default_threads();

// Sets how many OpenMP threads this thread's parallel regions use, for the guard's lifetime: a run's threads
// hold for all of it (its audits' runs, its noise probes, its ledgers), not only for its trials.
class ThreadCount {
 public:
  explicit ThreadCount(int threads);
  ~ThreadCount();
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int previous_;
};

// What a run does with trials of the same experiment (content hash) that the store already holds.
enum class StoredTrials {
  refuse,  // stop with dpb::InvalidArgument naming --resume and --fresh: never delete results unasked
  resume,  // keep them and run only the rest
  fresh,   // delete them and run everything again
};

struct RunOptions {
  int threads = 1;
  StoredTrials stored = StoredTrials::refuse;
  bool terminal = false;        // progress as a bar (true) or one line per cell (false)
  std::FILE* progress = nullptr;  // where progress goes (null: silent)
};

// dpb::InvalidArgument for options no run can take (threads < 1): called before anything is created.
void check_run_options(const RunOptions& options);

struct RunOutcome {
  std::string hash;
  std::size_t tasks = 0;     // all (cell, algorithm, trial) tasks of the experiment
  std::size_t skipped = 0;   // already stored (resume)
  std::size_t executed = 0;  // run and stored now
  std::size_t failed = 0;    // of those, rows with an error
  bool interrupted = false;  // Ctrl-C: the tasks not started were left for --resume
};

// Runs what is missing of `spec` into `store`; rows stored earlier under the same hash are kept, deleted
// or refused (nothing run, nothing changed) as options.stored says. Ctrl-C (SIGINT/SIGTERM) finishes the tasks in flight, commits and returns
// with `interrupted` set. Throws dpb::InvalidArgument for threads < 1
// (check_run_options), before touching the store.
// Under mpirun every rank calls it at the same point: rank 0 with the store, the others with none (they
// send their rows to rank 0); `threads` are per rank, and every rank returns rank 0's outcome.
RunOutcome run_experiment(const ExperimentSpec& spec, ResultStore* store, const RunOptions& options);

}  // namespace dpb::verify
