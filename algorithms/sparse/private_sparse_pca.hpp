#pragma once
// kumar2025 Algorithm 2, PrivPCA: (eps, delta)-DP sparse PCA under Model 2 by propose-test-release on
// m blocks, then the Gaussian mechanism on the projector and top_{k^2} (spec: kumar2025 §2.2, §3.2).
#include <Eigen/Dense>
#include <optional>
#include <string>

#include "algorithms/privacy.hpp"
#include "algorithms/sparse/stable_block_average.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct PrivPcaParams : BlockAlgorithmParams {
  double lambda_hat = 0;  // operator-norm estimate (public, e.g. PrivNorm's output), > 0
  // spec: kumar2025 A5: rigorous Delta_P = 272 sqrt(2) k tau/(gamma (1 - gamma/2) lambda_hat) (default);
  // false = the paper's 68 sqrt(2) k tau/(gamma lambda_hat). Both scale with final_threshold/17.
  bool rigorous_sensitivity = true;
  // spec: kumar2025 A9: when Eq. 28 fails, refuse with dpb::InvalidArgument (false) or return BOTTOM
  // without touching the data (true). Ignored in scaled mode (recorded, not enforced).
  bool precondition_bottom = false;
};

struct PrivPcaResult {
  StableBlockResult blocks;
  std::optional<Eigen::VectorXd> v_priv;  // the release; empty = BOTTOM
  std::string bottom;                     // why BOTTOM ("" when released)
  double precondition_lhs = 0;            // Eq. 28: 2 k (final_threshold) tau (= 34 k tau) ...
  double precondition_rhs = 0;            // ... <= gamma lambda_hat / 16
  bool precondition_holds = false;
  double Delta_P = 0, sigma_priv = 0;  // the sensitivity the noise is calibrated to, and the noise sd
  double proven_Delta_P = 0;           // the rigorous Delta_P (A5): what the ledger charges
  Eigen::VectorXd v_hat;               // line 17 (not private)
  Eigen::MatrixXd P_hat;               // v_hat v_hat^T (not private)
  Eigen::MatrixXd P_til;               // line 21 after symmetrisation
  double W_max = 0;                    // max |W_ij|
  bool top_entries_tie = false;
};

// Algorithm 2 on X (d x n). Throws dpb::InvalidArgument on invalid input, and in private mode when the
// Eq. 28 precondition fails unless precondition_bottom is set.
// Every release is recorded in `ledger` (nothing when the precondition returns BOTTOM).
PrivPcaResult private_sparse_pca(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                 const PrivPcaParams& params, Ledger& ledger, core::Rng& rng);

// The ledger of a run on n x d data whose tests both pass (the most it can spend); throws like
// private_sparse_pca on invalid parameters (the Eq. 28 precondition aside).
Ledger plan_private_sparse_pca_ledger(Eigen::Index n, Eigen::Index d, Eigen::Index k, const Privacy& privacy,
                                      const PrivPcaParams& params);

}  // namespace dpb::alg
