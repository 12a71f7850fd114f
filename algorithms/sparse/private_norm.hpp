#pragma once
// kumar2025 Algorithm 3, PrivNorm: the Appendix C private eigenvalue estimator ("Private Eigenvalue
// Estimation for RCS Matrices", Thm 6): an (eps, delta)-DP estimate of lambda_1(Sigma) = ||Sigma||_op
// for a k-RCS covariance (spec: kumar2025 §2.3, §3.3, §4.3).
#include <Eigen/Dense>
#include <optional>
#include <string>

#include "algorithms/privacy.hpp"
#include "algorithms/sparse/stable_block_average.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct PrivNormParams : BlockAlgorithmParams {
  // spec: kumar2025 A10: rigorous sensitivity 68 k tau (default); false = Alg 3's printed 17 k tau.
  // Both scale with final_threshold/17. (The lambda_hat of Alg 3's signature is unused, A10.)
  bool rigorous_sensitivity = true;
};

struct PrivNormResult {
  StableBlockResult blocks;
  std::optional<double> lambda_hat;        // the release; empty = BOTTOM
  double sensitivity = 0, sigma_priv = 0;  // the sensitivity the noise is calibrated to, and the noise sd
  double proven_sensitivity = 0;           // 68 k tau (x final_threshold/17): what the ledger charges (A10)
  double norm_before_noise = 0;            // ||T_{17 tau}(SigmaBar)||_op (not private)
};

// Every release is recorded in `ledger`.
PrivNormResult private_norm(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                            const PrivNormParams& params, Ledger& ledger, core::Rng& rng);

// The ledger of a run on n x d data whose tests both pass (the most it can spend); throws like private_norm
// on invalid parameters.
Ledger plan_private_norm_ledger(Eigen::Index n, Eigen::Index d, Eigen::Index k, const Privacy& privacy,
                                const PrivNormParams& params);

}  // namespace dpb::alg
