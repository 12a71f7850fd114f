#pragma once
// The Theorem 3 pipeline of kumar2025 (spec §2.4, A11): PrivNorm on the first half of the data for
// lambda_hat, then PrivPCA on the second half with that lambda_hat; each at (eps/2, delta/2, beta/2).
#include <Eigen/Dense>
#include <optional>
#include <string>

#include "algorithms/sparse/private_norm.hpp"
#include "algorithms/sparse/private_sparse_pca.hpp"

namespace dpb::alg {

// m is shared by both calls (0 = spec A7's minimum at (eps/2, delta/2, beta/2)); tau is the per-half
// threshold (0 = Eq. 26 at n/2 samples, the paper's sqrt(2) tau, A11).
struct SparsePcaPipelineParams : BlockAlgorithmParams {
  bool rigorous_pca_sensitivity = true;   // spec A5
  bool rigorous_norm_sensitivity = true;  // spec A10
};

struct SparsePcaPipelineResult {
  PrivNormResult norm;               // on D_1 = the first floor(n/2) samples
  std::optional<PrivPcaResult> pca;  // on D_2 = the next floor(n/2) (absent when PrivNorm gave BOTTOM)
  std::optional<Eigen::VectorXd> v_priv;
  std::string bottom;  // which stage returned BOTTOM, and why
};

// Runs both stages. A failed Eq. 28 precondition in the PCA stage returns BOTTOM (it depends on the
// released lambda_hat, so refusing would be post-processing too, but an exception would hide the run).
SparsePcaPipelineResult sparse_pca_pipeline(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                            const SparsePcaPipelineParams& params, core::Rng& rng);

}  // namespace dpb::alg
