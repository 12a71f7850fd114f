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
// Every release is recorded in `ledger`, each step named by its stage ("PrivNorm (first half): ...",
// "PrivPCA (second half): ...") and in the ledger part of its half (0 and 1: disjoint records).
SparsePcaPipelineResult sparse_pca_pipeline(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                            const SparsePcaPipelineParams& params, Ledger& ledger,
                                            core::Rng& rng);

// The ledger of a run on n x d data whose every test passes (the most it can spend).
Ledger plan_sparse_pca_pipeline_ledger(Eigen::Index n, Eigen::Index d, Eigen::Index k, const Privacy& privacy,
                                       const SparsePcaPipelineParams& params);

}  // namespace dpb::alg
