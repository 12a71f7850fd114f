#pragma once
// The audit as `dpbounds audit` prints it: text for a reader, JSON for a machine.
#include <nlohmann/json.hpp>
#include <string>

#include "verify/audit/auditor.hpp"

namespace dpb::verify {

// Verdict first, then the claim and its scope, the neighbours, eps_lb with its confidence in both
// directions, the Gaussian-DP fit, the largest detectable eps and the runs per second.
std::string to_text(const AuditResult& result);
nlohmann::json to_json(const AuditResult& result);

}  // namespace dpb::verify
