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

struct RunOptions {
  int threads = 1;
  bool resume = false;          // keep stored rows of the same content hash and run only the rest
  bool terminal = false;        // progress as a bar (true) or one line per cell (false)
  std::FILE* progress = nullptr;  // where progress goes (null: silent)
};

struct RunOutcome {
  std::string hash;
  std::size_t tasks = 0;     // all (cell, algorithm, trial) tasks of the experiment
  std::size_t skipped = 0;   // already stored (with resume)
  std::size_t executed = 0;  // run and stored now
  std::size_t failed = 0;    // of those, rows with an error
  bool interrupted = false;  // Ctrl-C: the tasks not started were left for --resume
};

// Runs what is missing of `spec` into `store`. Without resume, rows stored earlier under the same
// hash are deleted first. Ctrl-C (SIGINT/SIGTERM) finishes the tasks in flight, commits and returns
// with `interrupted` set. Throws dpb::InvalidArgument for threads < 1.
// Under mpirun every rank calls it at the same point: rank 0 with the store, the others with none (they
// send their rows to rank 0); `threads` are per rank, and every rank returns rank 0's outcome.
RunOutcome run_experiment(const ExperimentSpec& spec, ResultStore* store, const RunOptions& options);

}  // namespace dpb::verify
