#pragma once
// The spiked covariance model Sigma = U Lambda U^T + sigma^2 I (cai2024 eq. (1), liu2022 Remark 3.4),
// with Gaussian data and the sub-Gaussian / heavier-tailed alternatives of cai2024 §7.
#include <Eigen/Dense>
#include <optional>
#include <span>
#include <vector>

#include "core/models/model.hpp"

namespace dpb::core {

// Distribution of the iid entries of g_i and w_i; every kind has mean 0 and variance 1, so the
// covariance is Sigma whatever the kind.
enum class EntryNoise {
  gaussian,    // N(0, 1)
  rademacher,  // uniform on {-1, +1}
  uniform,     // uniform on [-sqrt 3, sqrt 3]
  student_t,   // Student-t(nu) scaled by sqrt((nu - 2)/nu), nu > 2
};

struct StandardizedEntries {
  EntryNoise kind = EntryNoise::gaussian;
  double nu = 0;  // degrees of freedom, student_t only

  double draw(Rng& rng) const;
  // out[i] = the i-th draw, in bulk where the kind has a bulk sampler.
  void fill(Rng& rng, std::span<double> out) const;
  // E[y^4] - 3; empty when the fourth moment is infinite (student_t with nu <= 4).
  std::optional<double> excess_kurtosis() const;
};

// X_i = U Lambda^{1/2} g_i + sigma w_i with g_i in R^r, w_i in R^d (spec: cai2024 §7).
class SpikedModel final : public Model {
 public:
  // U: d x r orthonormal; spikes: the r diagonal entries of Lambda, > 0 and non-increasing.
  SpikedModel(const std::string& id, const Eigen::MatrixXd& U, const Eigen::VectorXd& spikes, double sigma2,
              StandardizedEntries entries);
  const ModelInfo& info() const override { return info_; }
  Eigen::MatrixXd sample(Eigen::Index n, Rng& rng) const override;

 private:
  ModelInfo info_;
  Eigen::MatrixXd loadings_;  // U Lambda^{1/2}
  double sigma_;
  StandardizedEntries entries_;
};

// spiked_gaussian, spiked_rademacher, spiked_uniform, spiked_student_t.
std::vector<ModelEntry> spiked_entries();

}  // namespace dpb::core
