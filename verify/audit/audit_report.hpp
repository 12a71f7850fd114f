#pragma once
// The audit as `dpbounds audit` prints it: text for a reader, JSON for a machine.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "verify/audit/auditor.hpp"

namespace dpb::verify {

// How a verdict compares with what the audit was expected to find (expected_verdict in audit_spec.hpp).
enum class AuditOutcome {
  as_expected,  // a real algorithm passed, or a mutant was flagged: the auditor did its job
  unexpected,   // a real algorithm flagged, or a mutant not flagged: `verify` fails
  not_audited,  // the algorithm claims no privacy: nothing to expect, never a failure
};
AuditOutcome audit_outcome(const AuditResult& result);
// "(expected)", "(expected: mutant)", "(UNEXPECTED: expected VIOLATION)" or "(not audited: no claim)".
std::string expectation_note(const AuditResult& result);
// One line for a suite's log: verdict, note, algorithm, eps_lb against the audited eps, neighbours, score, and
// whether the noise probe found the noise its ledger declares.
std::string audit_line(const AuditResult& result);

// Verdict and expectation first, then the claim and its scope, the neighbours, eps_lb with its
// confidence in both directions, the Gaussian-DP fit, the largest detectable eps and the runs per second.
std::string to_text(const AuditResult& result);
nlohmann::json to_json(const AuditResult& result);

// One entry of audits.json read back: what `dpbounds compare` needs of it, by the keys to_json writes (read
// in this file only, beside the writer).
struct StoredAuditTest {  // a held-out test's counts: positives_in of positives on D', negatives_in of negatives on D
  long positives_in = 0, positives = 0, negatives_in = 0, negatives = 0;
};
struct StoredAudit {
  std::string algorithm, verdict, claim_scope, construction, score;
  nlohmann::json asked = nlohmann::json::object();  // the parameters, model parameters and budget asked for
  std::string model;
  long n = 0;
  int d = 0, k = 0;
  double audited_epsilon = 0, audited_delta = 0, confidence = 0;
  double epsilon_lower = 0;  // +infinity where to_json wrote null (unbounded)
  struct Direction {
    StoredAuditTest clopper_pearson, gaussian_dp;
  };
  std::vector<Direction> directions;
};
// Throws nlohmann::json::exception when a key to_json always writes is missing or has another type; `asked`,
// `data` and `score` (absent from files of older versions) default to empty.
StoredAudit stored_audit(const nlohmann::json& entry);

}  // namespace dpb::verify
