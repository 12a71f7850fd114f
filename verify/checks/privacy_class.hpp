#pragma once
// Whether an algorithm belongs to a lower bound's class (DESIGN.md §5 "falsification": the bound
// speaks only about algorithms in its class, e.g. "(eps,delta)-DP" or "(eps,0)-DP").
#include <optional>
#include <string>

#include "algorithms/privacy.hpp"
#include "bounds/theorem.hpp"

namespace dpb::verify {

struct Membership {
  std::optional<bool> member;  // absent: cannot be decided
  std::string reason;          // why, in words
};

// Recognised classes (spaces and case ignored): "(eps,delta)-DP" (approximate DP at the cell's eps
// and delta) and "(eps,0)-DP" / "eps-DP" / "pure-DP" (pure DP at the cell's eps). A claim is a
// member when it is not `not_private` and its epsilon and delta do not exceed the class's.
Membership privacy_class_membership(const std::string& privacy_class, const alg::PrivacyClaim& claim,
                                    const bounds::Params& cell);

// The claim the registered algorithm makes at the cell's eps, delta and k. `algorithm` is a
// TrialRow::algorithm label, "id" or "id[name=value,...]" with overrides. nullopt with `why` filled
// when the algorithm is unknown or its claim cannot be formed.
std::optional<alg::PrivacyClaim> registry_privacy_claim(const std::string& algorithm,
                                                        const bounds::Params& cell, std::string& why);

}  // namespace dpb::verify
