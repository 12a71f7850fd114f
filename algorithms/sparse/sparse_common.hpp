#pragma once
// What the kumar2025 estimators share: the "scaled constants" mode (spec: kumar2025 §2.6), the public
// quantities that may come from the model oracle in simulation (sigma^2, gamma, lambda_1), and input
// validation.
#include <Eigen/Dense>
#include <string>

#include "algorithms/estimate.hpp"
#include "algorithms/privacy.hpp"
#include "core/models/model.hpp"

namespace dpb::alg {

// The printed constants need ~1e10 samples per block (spec §2.6). `scaled_not_private` multiplies every
// noise scale by `noise_factor` (< 1 typically) and skips the privacy preconditions, for utility-trend
// experiments only. The name appears verbatim in the claim, the diagnostics and the registry text, and
// the claim's scope is ClaimScope::not_private, so it cannot be mistaken for the private default.
inline constexpr const char* kPrivateConstants = "private";
inline constexpr const char* kScaledConstants = "scaled_not_private";

struct SparseConstants {
  bool scaled = false;
  double noise_factor = 0.01;  // read only when scaled; finite and > 0

  double noise(double scale) const { return scaled ? noise_factor * scale : scale; }
  std::string name() const { return scaled ? kScaledConstants : kPrivateConstants; }
};

// In scaled mode: scope := ClaimScope::not_private with epsilon = delta = 0 (no budget: the noise matches
// none), the first condition says why, and a diagnostics note (both name the mode). A no-op in private
// mode.
void mark_if_scaled(const SparseConstants& constants, PrivacyClaim& claim);
void mark_if_scaled(const SparseConstants& constants, Diagnostics& diagnostics);

// A public quantity: `given` when > 0, else the oracle's `oracle_key` (simulation only). Throws
// dpb::InvalidArgument naming the parameter when neither is available or the value is not finite > 0.
double public_or_oracle(double given, const core::ModelInfo* oracle, const std::string& oracle_key,
                        const std::string& param, const std::string& owner);
// The relative gap gamma: `given` when > 0, else the oracle's "gamma", else 1 - lambda2/lambda1 from the
// oracle. Must lie in (0, 1].
double gap_or_oracle(double given, const core::ModelInfo* oracle, const std::string& owner);

// Validates the data (present, finite, d >= 2, at least `min_samples` columns), k in [1, d] and the
// privacy parameters (eps finite > 0; delta in (0, 1) when `needs_delta`, else delta = 0 is allowed).
void validate_sparse_input(const Eigen::MatrixXd* X, Eigen::Index k, const Privacy& privacy, bool needs_delta,
                           Eigen::Index min_samples, const std::string& owner);

}  // namespace dpb::alg
