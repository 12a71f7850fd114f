#pragma once
// The options of the verbs that run trials into a results store (run, verify, reproduce): the threads,
// and what to do with trials of the same experiment the store already holds. One definition, so the
// three verbs name and explain them alike.
#include <CLI/CLI.hpp>

#include "verify/runner/runner.hpp"

namespace dpb::cli {

struct TrialRunFlags {
  int threads = verify::default_threads();
  bool resume = false, fresh = false;
};

// --threads, and --resume / --fresh (mutually exclusive) on `sub`.
void add_trial_run_flags(CLI::App& sub, TrialRunFlags& flags);
// The runner's options: progress to stderr, drawn as a bar on a terminal.
verify::RunOptions run_options(const TrialRunFlags& flags);

// Printed when Ctrl-C stopped a run (exit kInterruptedExitCode).
inline constexpr const char* kInterruptedMessage =
    "interrupted: the finished trials are stored; rerun with --resume to complete";

}  // namespace dpb::cli
