#pragma once
// The audit as `dpbounds audit` prints it: text for a reader, JSON for a machine.
#include <nlohmann/json.hpp>
#include <string>

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
// One line for a suite's log: verdict, note, algorithm, eps_lb against the audited eps, neighbours, score.
std::string audit_line(const AuditResult& result);

// Verdict and expectation first, then the claim and its scope, the neighbours, eps_lb with its
// confidence in both directions, the Gaussian-DP fit, the largest detectable eps and the runs per second.
std::string to_text(const AuditResult& result);
nlohmann::json to_json(const AuditResult& result);

}  // namespace dpb::verify
