#pragma once
// A random-sign spike plus isotropic Gaussian noise: liu2022 Example 4.1 (amplitude 1) and the
// dugler2026 k = 1 generator (amplitude lambda_1), both the same law up to scale.
#include <Eigen/Dense>

#include "core/models/model.hpp"

namespace dpb::core {

// x = s a v + sigma g with s uniform on {-1, +1}, ||v|| = 1, g ~ N(0, I_d), so
// Sigma = a^2 v v^T + sigma^2 I (spec: liu2022 §4.5, §7.2; dugler2026 §7 F.1).
class SignedSpikePlusNoise final : public Model {
 public:
  SignedSpikePlusNoise(const std::string& id, const Eigen::VectorXd& v, double amplitude, double sigma);
  const ModelInfo& info() const override { return info_; }
  Eigen::MatrixXd sample(Eigen::Index n, Rng& rng) const override;

 private:
  ModelInfo info_;
  Eigen::VectorXd v_;
  double amplitude_, sigma_;
};

// signal_plus_noise (liu2022 Example 4.1).
ModelEntry signal_plus_noise_entry();

}  // namespace dpb::core
