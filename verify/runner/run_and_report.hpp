#pragma once
// An experiment from run to report: the trials into <out>/<name>/results.sqlite (verify/runner/
// runner.hpp), then the checks and the report files next to it (verify/checks, verify/report).
#include <filesystem>
#include <vector>

#include "verify/audit/auditor.hpp"
#include "verify/checks/check_spec.hpp"
#include "verify/experiment/settings.hpp"
#include "verify/experiment/spec.hpp"
#include "verify/report/failures.hpp"
#include "verify/store/results.hpp"
#include "verify/runner/privacy_ledgers.hpp"
#include "verify/runner/runner.hpp"

namespace dpb::verify {

struct ExperimentRun {
  RunOutcome outcome;
  ResultSet results;              // empty when interrupted
  std::vector<Verdict> verdicts;  // empty when interrupted
  std::vector<AuditResult> audits;  // the experiment's privacy audits (empty when interrupted)
  std::vector<CellLedger> ledgers;  // what each algorithm spent, trial 0 of every cell (rank 0, not interrupted)
  std::vector<FailureGroup> failures;  // (cell, algorithm) pairs with failed trials (rank 0, not interrupted)
  std::filesystem::path dir;      // <out>/<name>
};

// After the checks and the report, the ledgers of trial 0 of every (cell, algorithm) go to
// <dir>/privacy.md (verify/runner/privacy_ledgers.hpp) and the experiment's privacy audits run and go to <dir>/audits.json.
// An interrupted run stops after committing its rows: no checks, no report, no audits. An experiment
// without algorithms (audit-only) runs its audits alone: no store, no checks, no report.
// Under mpirun every rank calls it: the trials and the audits' runs are spread over the ranks; rank 0
// alone opens the store, checks and writes files, and only its ExperimentRun holds results and verdicts.
ExperimentRun run_and_report(const ExperimentSpec& spec, const std::filesystem::path& out, const RunOptions& options);

// The checks of `settings` on `results`, and the report written into `dir`.
std::vector<Verdict> check_and_report(const ResultSet& results, const RunSettings& settings,
                                      const std::filesystem::path& dir);

// 0 when no verdict FAILs, every (cell, algorithm) has a successful trial and every audit meets its
// expectation (a real algorithm passes, a mutant is flagged; see audit_outcome in
// verify/audit/audit_report.hpp), else kFailedCheckExitCode.
int run_exit_code(const ExperimentRun& run);

// What `run` and `verify` print about failed trials: one line per (cell, algorithm) with failures, and
// a last one naming the pairs without any successful trial (none when nothing failed).
std::vector<std::string> failure_report_lines(const ExperimentRun& run);

}  // namespace dpb::verify
