#pragma once
// The synthetic generators of dugler2026 §7 F.1: k = 1 (a random-sign spike plus Gaussian noise, see
// signal_plus_noise.hpp) and k > 1 (a fixed low-rank shift plus a Gaussian rank-one matrix).
#include <Eigen/Dense>
#include <vector>

#include "core/models/model.hpp"

namespace dpb::core {

// A_i = V_k Lambda V_k^T + z_i z_i^T with z_i ~ N(0, sigma^2 I_d), so
// Sigma = E[A_i] = V_k Lambda V_k^T + sigma^2 I (spec: dugler2026 §7 F.1, k > 1). The data are these
// matrices, not outer products of vectors: `sample` throws, `sample_matrices` gives
// ShiftedVectorSamples(V_k, Lambda, Z).
class ShiftedSpikedMatrices final : public Model {
 public:
  // Vk: d x k orthonormal; lambdas: the k entries of Lambda, > 0 and non-increasing; sigma > 0.
  ShiftedSpikedMatrices(const std::string& id, const Eigen::MatrixXd& Vk, const Eigen::VectorXd& lambdas,
                        double sigma);
  const ModelInfo& info() const override { return info_; }
  Eigen::MatrixXd sample(Eigen::Index n, Rng& rng) const override;
  std::unique_ptr<SampleMatrices> sample_matrices(Eigen::Index n, Rng& rng) const override;
  bool gives_vectors() const override { return false; }

 private:
  ModelInfo info_;
  Eigen::MatrixXd Vk_;
  Eigen::VectorXd lambdas_;
  double sigma_;
};

// X_i = V_k Lambda^{1/2} + sigma Z_i with Z_i a d x k matrix of iid N(0, 1), A_i = X_i X_i^T, so
// Sigma = E[A_i] = V_k Lambda V_k^T + k sigma^2 I: dugler2026 Corollary 2's rank-k spiked model (the seed's
// statement; spec §5 lists it as a theory-only model). Its eigengap is Lambda_k. `sample` throws (the data are
// rank-k matrices); `sample_matrices` gives FactorSamples with m = k.
class RankKSpikedMatrices final : public Model {
 public:
  RankKSpikedMatrices(const std::string& id, const Eigen::MatrixXd& Vk, const Eigen::VectorXd& lambdas, double sigma);
  const ModelInfo& info() const override { return info_; }
  Eigen::MatrixXd sample(Eigen::Index n, Rng& rng) const override;
  std::unique_ptr<SampleMatrices> sample_matrices(Eigen::Index n, Rng& rng) const override;
  bool gives_vectors() const override { return false; }

 private:
  ModelInfo info_;
  Eigen::MatrixXd signal_;  // V_k Lambda^{1/2}
  double sigma_;
};

// dugler_k1, dugler_shifted, dugler_rank_k.
std::vector<ModelEntry> dugler_entries();

}  // namespace dpb::core
