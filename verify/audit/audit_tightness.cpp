#include "verify/audit/audit_tightness.hpp"

#include <fmt/format.h>
#include <algorithm>

namespace dpb::verify {

namespace {

bool is_calibration_target(const std::string& id, const alg::Registry& registry) {
  const auto& entries = registry.entries();
  const auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.id == id; });
  return it != entries.end() && it->calibration_target;
}

}  // namespace

TightnessSummary summarize_tightness(const std::vector<const AuditResult*>& audits, const alg::Registry& registry) {
  TightnessSummary summary;
  for (const AuditResult* audit : audits) {
    if (expected_verdict(audit->spec, registry) != AuditExpectation::pass ||
        audit->verdict == AuditVerdict::not_private)
      continue;
    auto& group = is_calibration_target(audit->spec.algorithm, registry) ? summary.calibration : summary.algorithms;
    auto it = std::find_if(group.begin(), group.end(),
                           [&](const AlgorithmTightness& a) { return a.algorithm == audit->spec.algorithm; });
    if (it == group.end()) it = group.insert(it, {audit->spec.algorithm});
    it->tightness = std::max(it->tightness, audit->tightness());
    if (!audit->gaussian_ledger) continue;
    if (audit->claim.scope == alg::ClaimScope::worst_case) {
      it->gaussian = true;
      it->gaussian_tightness = std::max(it->gaussian_tightness, audit->tightness());
    } else {
      it->model_scope = true;
    }
  }
  std::vector<double> gaussian;
  for (const auto& a : summary.algorithms) {
    if (a.gaussian)
      gaussian.push_back(a.gaussian_tightness);
    else if (a.model_scope)
      ++summary.model_scope;
  }
  summary.gaussian = gaussian.size();
  if (gaussian.empty()) return summary;
  std::sort(gaussian.begin(), gaussian.end());
  const std::size_t m = gaussian.size();
  summary.gaussian_median = m % 2 ? gaussian[m / 2] : (gaussian[m / 2 - 1] + gaussian[m / 2]) / 2;
  return summary;
}

std::string describe(const TightnessSummary& summary) {
  std::string text;
  if (summary.gaussian > 0) {
    text = fmt::format(
        "median eps_lb / eps over the {} Gaussian-based algorithms with worst-case claims: {:.2f} (the best audit "
        "of each",
        summary.gaussian, summary.gaussian_median);
    if (summary.model_scope > 0)
      text += fmt::format("; {} claim{} made only under the model left out", summary.model_scope,
                          summary.model_scope == 1 ? "" : "s");
    text += ")";
  }
  if (summary.calibration.empty()) return text;
  text += text.empty() ? "the auditor on the textbook mechanisms: " : "; the auditor on the textbook mechanisms: ";
  for (std::size_t i = 0; i < summary.calibration.size(); ++i)
    text += fmt::format("{}{:.2f} ({})", i > 0 ? ", " : "", summary.calibration[i].tightness,
                        summary.calibration[i].algorithm);
  return text;
}

}  // namespace dpb::verify
