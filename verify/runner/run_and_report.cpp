#include "verify/runner/run_and_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>

#include "core/errors.hpp"
#include "verify/audit/audit_report.hpp"
#include "verify/checks/run_checks.hpp"
#include "verify/datasets/dataset_model.hpp"
#include "verify/report/pc_scatter.hpp"
#include "verify/distributed/ranks.hpp"
#include "verify/report/atomic_file.hpp"
#include "verify/runner/verdict_table.hpp"
#include "verify/report/write_report.hpp"

namespace dpb::verify {

ExperimentRun run_and_report(const ExperimentSpec& spec, const std::filesystem::path& out, const RunOptions& options) {
  check_run_options(options);  // before the store exists: a refused run leaves nothing behind
  const ThreadCount threads(options.threads);
  ExperimentRun run;
  run.dir = out / spec.name;
  run.results.experiment = spec.name;
  if (spec.data)  // before the store exists: a missing file leaves nothing behind
    if (const auto why = missing_data(*spec.data); !why.empty()) throw InvalidArgument(why);
  if (!spec.algorithms.empty()) {  // an audit-only experiment has no trials, checks or report
    // Under mpirun, only rank 0 opens the store; it alone checks and writes the report.
    std::optional<ResultStore> store;
    if (ranks::is_root()) store.emplace(store_path(run.dir));
    run.outcome = run_experiment(spec, store ? &*store : nullptr, options);
    if (run.outcome.interrupted) return run;
    if (store) {
      run.results = store->load(run.outcome.hash);
      run.failures = failure_groups(run.results);
      run.verdicts = check_and_report(run.results, settings_of(spec), run.dir);
      if (spec.data) write_pc_scatter(spec, run.dir);
      run.ledgers = trial_ledgers(spec);
      write_file_atomically(run.dir / "privacy.md", ledgers_markdown(spec.name, run.ledgers));
    }
  }
  if (spec.audits.empty()) return run;  // every rank runs the audits (their runs are spread over the ranks)
  nlohmann::json audits = nlohmann::json::array();
  for (const auto& audit : spec.audits) {
    run.audits.push_back(run_audit(audit));
    audits.push_back(to_json(run.audits.back()));
  }
  if (ranks::is_root()) write_file_atomically(run.dir / "audits.json", audits.dump(2) + "\n");
  return run;
}

std::vector<Verdict> check_and_report(const ResultSet& results, const RunSettings& settings,
                                      const std::filesystem::path& dir) {
  std::vector<Verdict> verdicts = run_checks(results, settings.checks, settings.seed);
  write_report(results, settings.report, verdicts, dir);
  return verdicts;
}

int run_exit_code(const ExperimentRun& run) {
  for (const auto& failure : run.failures)
    if (failure.all_failed()) return kFailedCheckExitCode;
  for (const auto& audit : run.audits)
    if (audit_outcome(audit) == AuditOutcome::unexpected) return kFailedCheckExitCode;
  return verdicts_exit_code(run.verdicts);
}

std::vector<std::string> failure_report_lines(const ExperimentRun& run) {
  std::vector<std::string> lines;
  std::vector<std::string> hopeless;
  for (const auto& failure : run.failures) {
    lines.push_back("failed trials: " + describe(failure));
    if (failure.all_failed()) hopeless.push_back(fmt::format("{} ({})", failure.algorithm, failure.cell_label));
  }
  if (!hopeless.empty())
    lines.push_back(fmt::format("FAILED: no successful trial for {} (cell, algorithm) pairs of {}: {}", hopeless.size(),
                                run.results.experiment, fmt::join(hopeless, "; ")));
  return lines;
}

}  // namespace dpb::verify
