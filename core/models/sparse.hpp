#pragma once
// Sparse covariance models of kumar2025 (spec §1.4): Gaussian data N(0, Sigma) with a k-RCS Sigma
// (Definition 1) and a gap, so that sigma^2 = ||Sigma||_op is the exact sub-Gaussian parameter.
//
//  - sparse_block_spike (Model 2, sparse PCA): Sigma = floor I + blockdiag(lambda u u^T, rho w_2 w_2^T, ...,
//    rho w_B w_B^T, 0) on B = floor(d/k) disjoint coordinate blocks of size k (the last d - B k coordinates
//    carry floor only), u, w_j uniform on S^{k-1}, blocks placed on a uniformly random permutation of the
//    coordinates (shuffle = 1) or contiguously. Every row has exactly k nonzeros (or 1), v_1 = u on the
//    first block (nnz(v_1) = k), eigenvalues floor + lambda, floor + rho (B - 1 times), floor.
//  - sparse_rcs_expander (Model 1, k-RCS covariance with a DENSE top eigenvector): Sigma = (floor + 2hc) I
//    + c sum_{j<=h} (P_j + P_j^T) with h = floor((k-1)/2) uniformly random permutation matrices P_j (a
//    random 2h-regular multigraph, spec A21). Each row has <= 2h + 1 <= k nonzeros, the row sums are
//    floor + 4hc, so v_1 = 1/sqrt(d) and lambda_1 = floor + 4hc exactly; lambda_2 and the rest come from the
//    eigensolver. Graphs with lambda_1 = lambda_2 (disconnected) are redrawn.
#include <Eigen/Dense>
#include <vector>

#include "core/models/model.hpp"

namespace dpb::core {

// x = L g with g ~ N(0, I_d) and L L^T = Sigma (Cholesky); ModelInfo given.
class GaussianFactorModel final : public Model {
 public:
  explicit GaussianFactorModel(ModelInfo info);
  const ModelInfo& info() const override { return info_; }
  Eigen::MatrixXd sample(Eigen::Index n, Rng& rng) const override;

 private:
  ModelInfo info_;
  Eigen::MatrixXd factor_;
};

// What the sparse models publish, from Sigma, its eigenvalues (descending) and v_1: target v_1, params d, p,
// r = 1, k (row sparsity), lambda1, lambda2, gamma = 1 - lambda2/lambda1 (§1.2's relative gap),
// subgaussian_sigma2 = lambda1 (exact for Gaussian data, §1.3), nnz_v1, and kappa.
ModelInfo sparse_model_info(const std::string& id, Eigen::MatrixXd Sigma, Eigen::VectorXd eigenvalues,
                            const Eigen::VectorXd& v1, Eigen::Index k);

// A uniformly random permutation of 0..d-1 (Fisher–Yates with uniform01 draws).
std::vector<Eigen::Index> random_permutation(Rng& rng, Eigen::Index d);

// sparse_block_spike and sparse_rcs_expander.
std::vector<ModelEntry> sparse_entries();

}  // namespace dpb::core
