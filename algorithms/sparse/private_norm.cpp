#include "algorithms/sparse/private_norm.hpp"

#include <fmt/format.h>

#include "algorithms/sparse/sparse_matrix_ops.hpp"
#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {
constexpr const char* kOwner = "kumar2025.priv_norm";
}  // namespace

PrivNormResult private_norm(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                            const PrivNormParams& params, core::Rng& rng) {
  validate_sparse_input(&X, k, privacy, true, 1, kOwner);
  if (!(params.gamma > 0 && params.gamma <= 1))
    throw InvalidArgument(fmt::format("{}: gamma must lie in (0, 1], got {}", kOwner, params.gamma));
  if (!(params.sigma2 > 0) || !std::isfinite(params.sigma2))
    throw InvalidArgument(fmt::format("{}: sigma2 must be finite and > 0, got {}", kOwner, params.sigma2));
  const StableBlockConstants& K = params.block;
  K.validate(kOwner);
  const BlockLayout layout = block_layout(X.cols(), X.rows(), params.m, params.tau, params.c_tau,
                                          params.sigma2, privacy, params.beta, K.constants, kOwner);
  PrivNormResult out;
  // Lines 17-18 (spec: kumar2025 A10): Delta = 4 k (17 tau) = 68 k tau rigorous, k (17 tau) = 17 k tau paper.
  const double kk = static_cast<double>(k);
  out.sensitivity = (params.rigorous_sensitivity ? 4 : 1) * kk * K.final_threshold * layout.tau;
  out.sigma_priv = release_noise_sd(out.sensitivity, privacy, params.gauss_multiplier,
                                    params.gauss_log_constant, K.constants, kOwner);
  // Lines 1-16: certification without the lambda_1 condition (Alg 3 line 2), then the two private tests.
  out.blocks = stable_block_average(X, layout.m, layout.tau, CertificationRule{k, params.gamma, std::nullopt},
                                    privacy, K, rng);
  if (!out.blocks.passed()) return out;
  // Line 19: ||T_{17 tau}(SigmaBar)||_op + N(0, sigma_priv^2).
  out.norm_before_noise =
      core::operator_norm(hard_threshold(out.blocks.SigmaBar, K.final_threshold * layout.tau));
  out.lambda_hat = out.norm_before_noise + out.sigma_priv * core::standard_normal(rng);
  return out;
}

}  // namespace dpb::alg
