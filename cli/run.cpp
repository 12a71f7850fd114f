// `dpbounds run CONFIG`: an experiment's trials into results/<name>/results.sqlite, then its checks
// and report (docs/experiments.md).
#include <cstdio>
#include <fmt/core.h>
#include <iostream>

#include "cli/trial_run_flags.hpp"
#include "cli/verb.hpp"
#include "verify/audit/audit_report.hpp"
#include "verify/experiment/parse.hpp"
#include "verify/runner/run_and_report.hpp"
#include "verify/runner/signals.hpp"
#include "verify/runner/verdict_table.hpp"

namespace dpb::cli::run_verb {

struct Options {
  std::string config, out = "results";
  dpb::verify::ExperimentOverrides overrides;
  dpb::cli::TrialRunFlags trials;
};

int run(const Options& o) {
  const auto spec = dpb::verify::load_experiment(o.config, o.overrides);
  if (!spec.tuned_by.empty())
    fmt::print("{} is tuned by {}: alone it runs its algorithms as listed (a suite or `dpbounds reproduce` runs the "
               "tuning first and uses its choice)\n",
               spec.name, spec.tuned_by);
  const auto options = dpb::cli::run_options(o.trials);
  const auto result = dpb::verify::run_and_report(spec, o.out, options);
  const auto& outcome = result.outcome;
  fmt::print("{}: {} tasks, {} run now ({} failed), {} already stored; results {}\n", spec.name, outcome.tasks,
             outcome.executed, outcome.failed, outcome.skipped, (result.dir / "results.sqlite").string());
  if (outcome.interrupted) {
    fmt::print("{}\n", dpb::cli::kInterruptedMessage);
    return dpb::verify::kInterruptedExitCode;
  }
  for (const auto& line : dpb::verify::failure_report_lines(result)) fmt::print("{}\n", line);
  dpb::verify::print_verdicts(result.verdicts, std::cout);
  for (const auto& line : dpb::verify::ledger_summary_lines(result.ledgers)) fmt::print("{}\n", line);
  for (const auto& audit : result.audits) fmt::print("{}\n", dpb::verify::to_text(audit));
  fmt::print("report {}\n", (result.dir / "summary.md").string());
  if (!result.ledgers.empty()) fmt::print("privacy ledgers {}\n", (result.dir / "privacy.md").string());
  return dpb::verify::run_exit_code(result);
}

const bool registered = dpb::cli::register_verb({
    .name = "run",
    .summary = "Run an experiment YAML: trials, checks and report",
    .help = "trials into OUT/<name>/results.sqlite (resumable), then checks and report;\n"
            "exit 1 when a check FAILs or an audit finds a VIOLATION, 130 when interrupted",
    .examples = {"run configs/experiments/cai2024.yaml --threads 2",
                 "run CONFIG --only 'liu2022.*' --set grid.n=[1000,2000] --resume"},
    .order = 20,
    .spreads_over_ranks = true,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.add_option("config", o->config, "Experiment YAML file")->required();
          sub.add_option("--only", o->overrides.only, "Keep algorithms matching id-glob[param=value,...] (repeatable)")
              ->allow_extra_args(false);
          sub.add_option("--set", o->overrides.set, "Change the YAML before validation: path=value (repeatable)")
              ->allow_extra_args(false);
          dpb::cli::add_trial_run_flags(sub, o->trials);
          sub.add_option("--out", o->out, "Results root (default results/)");
          return [o] { return run(*o); };
        },
});

}  // namespace dpb::cli::run_verb
