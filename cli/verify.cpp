// `dpbounds verify`: a suite of experiments (configs/suites/<suite>.yaml): every registered algorithm
// against its encoded theorems, the verdict table and the suite's summary.
#include <cstdio>
#include <fmt/core.h>
#include <iostream>

#include "cli/trial_run_flags.hpp"
#include "cli/verb.hpp"
#include "verify/runner/signals.hpp"
#include "verify/runner/verdict_table.hpp"
#include "verify/suite/suite.hpp"

namespace dpb::cli::verify_verb {

struct Options {
  std::string suite = "quick", out = "results", configs;
  dpb::verify::ExperimentOverrides overrides;
  dpb::cli::TrialRunFlags trials;
};

int run(const Options& o) {
  const auto suite = dpb::verify::load_suite(dpb::verify::suite_file(o.suite, dpb::verify::config_locations(o.configs)), o.overrides);
  fmt::print("dpbounds verify: suite {} ({} experiments)\n", suite.name, suite.experiments.size());
  std::cout.flush();
  const auto options = dpb::cli::run_options(o.trials);
  const auto result = dpb::verify::run_suite(suite, o.out, options, std::cout);
  if (result.interrupted) {
    fmt::print("{}\n", dpb::cli::kInterruptedMessage);
    return dpb::verify::kInterruptedExitCode;
  }
  const auto [all, code] = dpb::verify::collect_verdicts(result);
  const auto counts = dpb::verify::count_verdicts(all);
  const auto coverage = dpb::verify::suite_coverage(suite);
  fmt::print("\n{} checks: {} PASS, {} FAIL, {} INCONCLUSIVE; {} (algorithm, theorem) pairs checked, {} upper-bound "
             "pairs and {} lower bounds not yet\n",
             all.size(), counts[0], counts[1], counts[2], coverage.covered.size(), coverage.uncovered.size(),
             coverage.unchecked_lower_bounds.size());
  fmt::print("summary {}/suite-{}/summary.md\n", o.out, suite.name);
  return code;
}

const bool registered = dpb::cli::register_verb({
    .name = "verify",
    .summary = "Check every algorithm against its theorems (a suite of experiments)",
    .help = "runs configs/suites/<suite>.yaml (quick: minutes; full: longer grids), prints the\n"
            "verdicts and writes OUT/suite-<suite>/summary.md; exit 1 when a check FAILs",
    .examples = {"verify", "verify --suite full --threads 8"},
    .order = 15,
    .spreads_over_ranks = true,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.add_option("--suite", o->suite, "quick | full | path to a suite YAML (default quick)");
          sub.add_option("--configs", o->configs,
                         "Configs directory holding suites/ (default: $DPBOUNDS_CONFIGS, else ./configs, else the "
                         "one beside the executable or installed with it)");
          sub.add_option("--only", o->overrides.only, "Keep algorithms matching id-glob[param=value,...] (repeatable)")
              ->allow_extra_args(false);
          sub.add_option("--set", o->overrides.set, "Change every experiment's YAML: path=value (repeatable)")
              ->allow_extra_args(false);
          dpb::cli::add_trial_run_flags(sub, o->trials);
          sub.add_option("--out", o->out, "Results root (default results/)");
          return [o] { return run(*o); };
        },
});

}  // namespace dpb::cli::verify_verb
