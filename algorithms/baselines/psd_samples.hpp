#pragma once
// The data the baselines read: n PSD matrices A_1..A_n, either A_i = x_i x_i^T (columns of Input::X,
// or core::VectorSamples) or A_i = C + x_i x_i^T (core::ShiftedVectorSamples, the dugler2026 §7 F.1
// k > 1 generator). dugler2026 §2.9 states every baseline on matrices A_i (trace clipping
// A_i min{1, beta^2 / Tr A_i}); cai2024 §6 on vectors. Traces and diagonals cost O(d) per sample, and a
// weighted sum sum_i c_i A_i is one symmetric rank update (core::second_moment): no A_i is formed.
#include <Eigen/Dense>
#include <string>

#include "algorithms/registry.hpp"

namespace dpb::alg::baselines {

class PsdSamples {
 public:
  // Reads in.X when it is set, else in.samples when it is a VectorSamples or ShiftedVectorSamples.
  // Throws dpb::InvalidArgument (naming `owner`) when there is no such data, n < 1, d < 2, or an entry
  // is NaN or infinite.
  static PsdSamples from(const Input& in, const std::string& owner);

  Eigen::Index n() const { return X_->cols(); }
  Eigen::Index d() const { return X_->rows(); }
  const Eigen::MatrixXd& vectors() const { return *X_; }
  bool shifted() const { return shift_.size() > 0; }

  // Tr A_i = tr C + ||x_i||^2.
  double trace(Eigen::Index i) const;
  // sum_j sqrt((A_i)_jj) = sum_j sqrt(C_jj + x_ij^2); for A_i = x x^T this is ||x_i||_1.
  double sum_sqrt_diagonal(Eigen::Index i) const;
  // sum_i c_i A_i = (sum_i c_i) C + X diag(c) X^T, fully symmetric; c >= 0 has n entries.
  Eigen::MatrixXd weighted_sum(const Eigen::VectorXd& c) const;

 private:
  PsdSamples() = default;
  const Eigen::MatrixXd* X_ = nullptr;
  Eigen::MatrixXd shift_;           // C, empty when A_i = x_i x_i^T
  Eigen::VectorXd shift_diagonal_;  // diag(C)
  double shift_trace_ = 0;
};

}  // namespace dpb::alg::baselines
