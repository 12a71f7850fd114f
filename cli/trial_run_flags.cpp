#include "cli/trial_run_flags.hpp"

#include <unistd.h>

#include <cstdio>

namespace dpb::cli {

void add_trial_run_flags(CLI::App& sub, TrialRunFlags& flags) {
  sub.add_option("--threads", flags.threads, "Threads (default: OMP_NUM_THREADS or all cores)");
  auto* resume = sub.add_flag("--resume", flags.resume,
                              "Keep the stored trials of this exact experiment and run only the rest");
  auto* fresh = sub.add_flag("--fresh", flags.fresh,
                             "Delete the stored trials of this exact experiment and run everything again "
                             "(without --resume or --fresh, a run into a store holding them stops)");
  resume->excludes(fresh);
}

verify::RunOptions run_options(const TrialRunFlags& flags) {
  verify::RunOptions options;
  options.threads = flags.threads;
  options.stored = flags.resume  ? verify::StoredTrials::resume
                   : flags.fresh ? verify::StoredTrials::fresh
                                 : verify::StoredTrials::refuse;
  options.terminal = ::isatty(STDERR_FILENO) != 0;
  options.progress = stderr;
  return options;
}

}  // namespace dpb::cli
