#include "algorithms/sparse/private_norm.hpp"

#include <fmt/format.h>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/sparse/sparse_matrix_ops.hpp"
#include "core/errors.hpp"
#include "core/metrics.hpp"

namespace dpb::alg {
namespace {
constexpr const char* kOwner = "kumar2025.priv_norm";
}  // namespace

namespace {

constexpr const char* kStep = "line 19: ||T_{17 tau}(SigmaBar)||_op + N(0, sigma_priv^2)";

void require_public(const PrivNormParams& params) {
  if (!(params.gamma > 0 && params.gamma <= 1))
    throw InvalidArgument(fmt::format("{}: gamma must lie in (0, 1], got {}", kOwner, params.gamma));
  if (!(params.sigma2 > 0) || !std::isfinite(params.sigma2))
    throw InvalidArgument(fmt::format("{}: sigma2 must be finite and > 0, got {}", kOwner, params.sigma2));
  params.block.validate(kOwner);
}

// Lines 17-18 (spec: kumar2025 A10): Delta = 4 k (17 tau) = 68 k tau rigorous, k (17 tau) = 17 k tau paper.
double norm_sensitivity(bool rigorous, Eigen::Index k, double final_threshold, double tau) {
  return (rigorous ? 4 : 1) * static_cast<double>(k) * final_threshold * tau;
}

}  // namespace

PrivNormResult private_norm(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                            const PrivNormParams& params, Ledger& ledger, core::Rng& rng) {
  validate_sparse_input(&X, k, privacy, true, 1, kOwner);
  require_public(params);
  const StableBlockConstants& K = params.block;
  const BlockLayout layout = block_layout(params, X.cols(), X.rows(), privacy, kOwner);
  PrivNormResult out;
  out.sensitivity = norm_sensitivity(params.rigorous_sensitivity, k, K.final_threshold, layout.tau);
  out.proven_sensitivity = norm_sensitivity(true, k, K.final_threshold, layout.tau);
  out.sigma_priv = release_noise_sd(params, out.sensitivity, privacy, kOwner);
  // Lines 1-16: certification without the lambda_1 condition (Alg 3 line 2), then the two private tests.
  out.blocks = stable_block_average(X, layout.m, layout.tau, CertificationRule{k, params.gamma, std::nullopt},
                                    privacy, K, ledger, rng);
  if (!out.blocks.passed()) return out;
  // Line 19: ||T_{17 tau}(SigmaBar)||_op + N(0, sigma_priv^2).
  out.norm_before_noise =
      core::operator_norm(hard_threshold(out.blocks.SigmaBar, K.final_threshold * layout.tau));
  Eigen::Matrix<double, 1, 1> release;
  release(0, 0) = out.norm_before_noise;
  gaussian_mechanism(release, release_entry(kStep, out.proven_sensitivity, out.sigma_priv, privacy), ledger,
                     rng);
  out.lambda_hat = release(0, 0);
  return out;
}

Ledger plan_private_norm_ledger(Eigen::Index n, Eigen::Index d, Eigen::Index k, const Privacy& privacy,
                                const PrivNormParams& params) {
  require_public(params);
  const BlockLayout layout = block_layout(params, n, d, privacy, kOwner);
  const auto sensitivity = [&](bool rigorous) {
    return norm_sensitivity(rigorous, k, params.block.final_threshold, layout.tau);
  };
  return block_algorithm_ledger(params, layout.m, privacy, kStep, sensitivity(true),
                                release_noise_sd(params, sensitivity(params.rigorous_sensitivity), privacy, kOwner));
}

}  // namespace dpb::alg
