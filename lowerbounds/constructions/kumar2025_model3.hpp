#pragma once
// kumar2025 Model 3, the fingerprinting prior of Theorem 2 (spec: kumar2025 §5.1):
// [d] is split into B = d/k contiguous blocks C_b of size k; G is the union of the cliques on the blocks;
// Sigma = diag(Sigma_1, ..., Sigma_B) with Sigma_b iid InvWishart((k-1) I_k, 2k) (so E Sigma_b = I_k);
// x_i iid N(0, Sigma). P_G keeps the within-block entries. Exact posterior mean per block (Fact 8):
// E[Sigma_b | X] = (n SigmaHat_b + (k-1) I_k) / (n + k - 1).
#include <Eigen/Dense>

#include "core/rng.hpp"

namespace dpb::lower {

class Model3 {
 public:
  // Needs k >= 2 and k | d; throws dpb::InvalidArgument otherwise.
  Model3(int d, int k);

  int d() const { return d_; }
  int k() const { return k_; }
  int blocks() const { return d_ / k_; }
  double prior_degrees_of_freedom() const { return 2.0 * k_; }  // r = 2k
  double prior_scale() const { return k_ - 1.0; }               // Psi_0 = (r - k - 1) I_k

  Eigen::MatrixXd draw_covariance(core::Rng& rng) const;
  // n samples N(0, sigma) as columns.
  Eigen::MatrixXd sample(const Eigen::MatrixXd& sigma, Eigen::Index n, core::Rng& rng) const;
  // P_G(M): the within-block entries of M, zero elsewhere (Eq. 6 for the block cliques).
  Eigen::MatrixXd project(const Eigen::MatrixXd& M) const;
  // E[Sigma | X] for the d x n data X (Fact 8 per block).
  Eigen::MatrixXd posterior_mean(const Eigen::MatrixXd& X) const;

 private:
  int d_;
  int k_;
};

// Lemma 30's explicit failure bound P(||Sigma||_op > 10) <= (d/k) (e^2/10)^{(k+1)/2}.
double model3_norm_failure_bound(int d, int k);

}  // namespace dpb::lower
