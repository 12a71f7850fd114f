#pragma once
// The tunable parts of the checks; docs/checks.md explains each default.
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "algorithms/privacy.hpp"
#include "bounds/theorem.hpp"

namespace dpb::verify {

// The privacy claim an algorithm label makes at a cell; nullopt with `why` filled when unknown.
using PrivacyClaimLookup = std::function<std::optional<alg::PrivacyClaim>(
    const std::string& algorithm, const bounds::Params& cell, std::string& why)>;

struct CheckOptions {
  int bootstrap_resamples = 2000;  // B: bootstrap resamples behind every confidence interval
  double confidence = 0.95;        // two-sided level of every CI; "significantly" means outside it
  // A (1 - zeta) quantile is used only with at least ceil(quantile_trials_factor / zeta) trials in
  // every cell, so that about quantile_trials_factor trials are expected above it.
  double quantile_trials_factor = 10;
  std::size_t min_trials_per_cell = 2;  // fewer successful trials in a cell: INCONCLUSIVE
  std::size_t min_cells = 3;            // a slope needs this many distinct values of `vary`
  // consistency: each variable is scaled by consistency_step^j, |j| <= consistency_steps, from the
  // theorems' example point, as far as both theorems' conditions allow.
  double consistency_step = 2;
  int consistency_steps = 20;
  PrivacyClaimLookup privacy_claim;  // empty: the algorithm registry's claim (registry_privacy_claim)
};

// Throws dpb::InvalidArgument naming the first option out of range.
void validate(const CheckOptions& options);

// Raised inside a check when the data or the theorem cannot support a verdict; run_checks turns it
// into an INCONCLUSIVE verdict carrying the message.
class Inconclusive : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dpb::verify
