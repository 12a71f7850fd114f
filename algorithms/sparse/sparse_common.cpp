#include "algorithms/sparse/sparse_common.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::alg {

void mark_if_scaled(const SparseConstants& constants, PrivacyClaim& claim) {
  if (!constants.scaled) return;
  // No guarantee at all: the noise is below what any (eps, delta) of the proofs needs.
  claim.scope = ClaimScope::not_private;
  claim.epsilon = 0;
  claim.delta = 0;
  claim.conditions.insert(
      claim.conditions.begin(),
      fmt::format("constants={}: NOT differentially private (noise scaled by {:g}, privacy preconditions "
                  "skipped; utility-trend experiments only, spec kumar2025 §2.6)",
                  kScaledConstants, constants.noise_factor));
}

void mark_if_scaled(const SparseConstants& constants, Diagnostics& diagnostics) {
  if (!constants.scaled) return;
  diagnostics.notes.push_back(fmt::format("constants={}: NOT differentially private; every noise scale x{:g}",
                                          kScaledConstants, constants.noise_factor));
  diagnostics.counters["scaled_noise_factor"] = constants.noise_factor;
}

double public_or_oracle(double given, const core::ModelInfo* oracle, const std::string& oracle_key,
                        const std::string& param, const std::string& owner) {
  double value = given;
  if (!(given > 0)) {
    if (!oracle || !oracle->params.count(oracle_key))
      throw InvalidArgument(fmt::format(
          "{}: parameter '{}' is 0 (= read the model's '{}'), but no oracle with that quantity was given; "
          "pass {} > 0 explicitly (on real data it is a public input)",
          owner, param, oracle_key, param));
    value = oracle->params.at(oracle_key);
  }
  if (!(value > 0) || !std::isfinite(value))
    throw InvalidArgument(fmt::format("{}: '{}' must be finite and > 0, got {}", owner, param, value));
  return value;
}

double gap_or_oracle(double given, const core::ModelInfo* oracle, const std::string& owner) {
  double gamma = given;
  if (!(given > 0) && oracle && !oracle->params.count("gamma") && oracle->params.count("lambda1") &&
      oracle->params.count("lambda2"))
    gamma = 1.0 - oracle->params.at("lambda2") / oracle->params.at("lambda1");
  else
    gamma = public_or_oracle(given, oracle, "gamma", "gamma", owner);
  if (!(gamma > 0 && gamma <= 1))
    throw InvalidArgument(fmt::format("{}: the relative gap gamma must lie in (0, 1], got {}", owner, gamma));
  return gamma;
}

void validate_sparse_input(const Eigen::MatrixXd* X, Eigen::Index k, const Privacy& privacy, bool needs_delta,
                           Eigen::Index min_samples, const std::string& owner) {
  if (!X)
    throw InvalidArgument(fmt::format("{}: needs vector data (Input.X, d x n, samples are columns)", owner));
  const Eigen::Index d = X->rows(), n = X->cols();
  if (d < 2) throw InvalidArgument(fmt::format("{}: need dimension d >= 2, got d = {}", owner, d));
  if (n < min_samples)
    throw InvalidArgument(
        fmt::format("{}: need at least {} samples (columns), got n = {}", owner, min_samples, n));
  if (k < 1 || k > d)
    throw InvalidArgument(fmt::format("{}: need 1 <= k <= d = {}, got k = {}", owner, d, k));
  if (!X->allFinite())
    throw InvalidArgument(fmt::format("{}: the data contain NaN or infinite values", owner));
  validate(privacy);
  if (needs_delta && !(privacy.delta > 0))
    throw InvalidArgument(
        fmt::format("{}: (eps, delta)-DP algorithm: delta must lie in (0, 1), got {}", owner, privacy.delta));
  if (privacy.neighbours != Neighbours::replace)
    throw InvalidArgument(fmt::format(
        "{}: the paper's sensitivity proofs are for replace-one neighbours only (spec: kumar2025 A1)",
        owner));
}

}  // namespace dpb::alg
