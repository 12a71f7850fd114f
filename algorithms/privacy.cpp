#include "algorithms/privacy.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::alg {

namespace {
std::string prefixed(const std::string& owner, const std::string& message) {
  return owner.empty() ? message : owner + ": " + message;
}
}  // namespace

void validate_epsilon(double epsilon, const std::string& owner) {
  if (!(std::isfinite(epsilon) && epsilon > 0))
    throw InvalidArgument(prefixed(owner, fmt::format("epsilon must be a finite number > 0, got {}", epsilon)));
}

void validate_delta(double delta, const std::string& owner) {
  if (!(delta >= 0 && delta < 1))
    throw InvalidArgument(prefixed(owner, fmt::format("delta must lie in [0, 1), got {}", delta)));
}

void validate(const Privacy& p) {
  validate_epsilon(p.epsilon);
  validate_delta(p.delta);
}

double sum_sensitivity_factor(Neighbours n) { return n == Neighbours::replace ? 2.0 : 1.0; }

std::string to_string(Neighbours n) { return n == Neighbours::replace ? "replace" : "add_remove"; }

std::string to_string(ClaimScope s) {
  if (s == ClaimScope::not_private) return "not_private";
  return s == ClaimScope::worst_case ? "worst_case" : "under_model_assumptions";
}

std::string describe(const PrivacyClaim& claim) {
  if (claim.scope == ClaimScope::not_private) {
    std::string line = "NOT differentially private (no privacy guarantee of any kind)";
    if (claim.epsilon > 0)
      line += fmt::format("; noise nominally calibrated to ({:g}, {:g}), which does NOT hold", claim.epsilon,
                          claim.delta);
    for (const auto& c : claim.conditions) line += "; " + c;
    return line;
  }
  std::string line = claim.delta > 0 ? fmt::format("({:g}, {:g})-DP", claim.epsilon, claim.delta)
                                     : fmt::format("{:g}-DP (pure)", claim.epsilon);
  line += claim.neighbours == Neighbours::replace ? ", replace-one neighbours" : ", add/remove-one neighbours";
  line += claim.scope == ClaimScope::worst_case
              ? ", worst case"
              : ", ONLY with high probability under the model's assumptions (not a worst-case guarantee)";
  for (const auto& c : claim.conditions) line += "; " + c;
  return line;
}

}  // namespace dpb::alg
