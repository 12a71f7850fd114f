#pragma once
// Suites (`dpbounds verify`): a named list of experiments run one after another, their verdicts
// gathered into one table and one summary (docs/experiments.md "Suites"). A suite file:
//
//   name: quick
//   description: every algorithm against its encoded theorems on small grids
//   experiments:
//     - ../experiments/cai2024.yaml                       # a file, relative to the suite file
//     - { file: ../experiments/liu2022.yaml, set: [trials=100] }  # a file with --set edits
//     - { name: inline-one, model: ..., ... }              # or an experiment written inline
#include <filesystem>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "verify/experiment/config_dirs.hpp"
#include "verify/experiment/parse.hpp"
#include "verify/experiment/spec.hpp"
#include "verify/runner/run_and_report.hpp"

namespace dpb::verify {

struct SuiteSpec {
  std::string name;
  std::string description;
  std::vector<ExperimentSpec> experiments;
};

// "quick" -> <configs>/suites/quick.yaml, the configs directory found from `where` (config_dirs.hpp:
// --configs, $DPBOUNDS_CONFIGS, the working directory, the executable); InvalidArgument listing the suites
// there when it has no such file. Anything with a '/' or ending in .yaml is taken as a path.
std::filesystem::path suite_file(const std::string& suite, const ConfigLocations& where);

// Reads and validates the suite and every experiment in it (ConfigError with file:line:column).
// `overrides` apply to each experiment; --only patterns that select nothing in one experiment drop
// that experiment instead of failing, but must select something in the suite as a whole.
SuiteSpec load_suite(const std::filesystem::path& file, const ExperimentOverrides& overrides = {});

// Which (algorithm id, theorem id) pairs the suite's checks cover: for every upper bound, each
// algorithm its `applies` names; for every lower bound, the algorithms checked against it.
struct Coverage {
  std::vector<std::pair<std::string, std::string>> covered;    // (algorithm, theorem)
  std::vector<std::pair<std::string, std::string>> uncovered;  // upper bounds only
  std::vector<std::string> unchecked_lower_bounds;             // lower bounds no check names
};
Coverage suite_coverage(const SuiteSpec& suite);

struct SuiteRun {
  std::vector<ExperimentRun> runs;  // in suite order (fewer when interrupted)
  bool interrupted = false;
};

// Every verdict of the suite's runs, in order, and the exit code the worst run asks for (run_exit_code:
// 0, or 1 for a FAIL or an unexpected audit outcome): what `verify` and `reproduce` report.
struct SuiteVerdicts {
  std::vector<Verdict> verdicts;
  int exit_code = 0;
};
SuiteVerdicts collect_verdicts(const SuiteRun& run);

// "N audits: A as expected (P PASS, V VIOLATION expected), U UNEXPECTED, X not audited (no claim)", then
// where real algorithms ran on all-Gaussian ledgers "; median eps_lb / eps over the G Gaussian-based
// algorithms: T (the best audit of each)"; empty when the suite has no audits. UNEXPECTED audits make `verify` exit 1 (run_exit_code).
std::string audit_summary(const SuiteRun& run);

// Runs every experiment into <out>/<experiment name>/, printing one header line per experiment, its
// verdicts and one line per audit to `log`, then the audit summary; writes
// <out>/suite-<name>/summary.md (verdicts, then the audits) and verdicts.json.
SuiteRun run_suite(const SuiteSpec& suite, const std::filesystem::path& out, const RunOptions& options,
                   std::ostream& log);

}  // namespace dpb::verify
