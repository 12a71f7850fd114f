#include "algorithms/sparse/sparse_pca_pipeline.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::alg {

SparsePcaPipelineResult sparse_pca_pipeline(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                            const SparsePcaPipelineParams& params, core::Rng& rng) {
  constexpr const char* kOwner = "kumar2025.sparse_pca_pipeline";
  validate_sparse_input(&X, k, privacy, true, 2, kOwner);
  // spec: kumar2025 §2.4 / A11: halves of size floor(n/2) (an odd last sample is dropped), every budget
  // halved, one m for both calls.
  const Eigen::Index half = X.cols() / 2;
  const Privacy each{privacy.epsilon / 2, privacy.delta / 2, privacy.neighbours};
  const double beta = params.beta / 2;
  const long long m = block_count(params.m, half, each, beta, params.block.constants, kOwner);
  SparsePcaPipelineResult out;
  PrivNormParams norm;
  static_cast<BlockAlgorithmParams&>(norm) = params;  // the shared inputs and constants
  norm.m = m;
  norm.beta = beta;
  norm.rigorous_sensitivity = params.rigorous_norm_sensitivity;
  out.norm = private_norm(X.leftCols(half), k, each, norm, rng);  // lambda_hat <- PrivNorm(D_1, ...)
  if (!out.norm.lambda_hat) {
    out.bottom = "PrivNorm (first half) returned BOTTOM: " + out.norm.blocks.bottom;
    return out;
  }
  if (!(*out.norm.lambda_hat > 0)) {
    out.bottom =
        fmt::format("PrivNorm (first half) released lambda_hat = {:g} <= 0; PrivPCA needs lambda_hat > 0",
                    *out.norm.lambda_hat);
    return out;
  }
  PrivPcaParams pca;
  static_cast<BlockAlgorithmParams&>(pca) = params;
  pca.m = m;
  pca.beta = beta;
  pca.lambda_hat = *out.norm.lambda_hat;
  pca.rigorous_sensitivity = params.rigorous_pca_sensitivity;
  pca.precondition_bottom = true;
  out.pca = private_sparse_pca(X.middleCols(half, half), k, each, pca, rng);  // v_priv <- PrivPCA(D_2, ...)
  out.v_priv = out.pca->v_priv;
  if (!out.v_priv) out.bottom = "PrivPCA (second half) returned BOTTOM: " + out.pca->bottom;
  return out;
}

}  // namespace dpb::alg
