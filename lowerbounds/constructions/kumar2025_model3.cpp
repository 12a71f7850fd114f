#include "lowerbounds/constructions/kumar2025_model3.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "lowerbounds/constructions/kumar2025_priors.hpp"

namespace dpb::lower {

namespace {

constexpr double lemma30_norm_level = 10;  // E_0 = {||Sigma||_op <= 10}

}  // namespace

Model3::Model3(int d, int k) : d_(d), k_(k) {
  if (k < 2 || d < k || d % k != 0)
    throw InvalidArgument(
        fmt::format("Model 3 (kumar2025): need k >= 2 and k | d, got d = {}, k = {}", d, k));
}

Eigen::MatrixXd Model3::draw_covariance(core::Rng& rng) const {
  Eigen::MatrixXd sigma = Eigen::MatrixXd::Zero(d_, d_);
  const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(k_, k_);
  for (int b = 0; b < blocks(); ++b)
    sigma.block(b * k_, b * k_, k_, k_) =
        scaled_inverse_wishart(identity, prior_scale(), prior_degrees_of_freedom(), rng);
  return sigma;
}

Eigen::MatrixXd Model3::sample(const Eigen::MatrixXd& sigma, Eigen::Index n, core::Rng& rng) const {
  return gaussian_samples(sigma, n, rng, "kumar2025.model3");
}

Eigen::MatrixXd Model3::project(const Eigen::MatrixXd& M) const {
  if (M.rows() != d_ || M.cols() != d_)
    throw InvalidArgument(fmt::format("Model 3: P_G needs a {0} x {0} matrix", d_));
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(d_, d_);
  for (int b = 0; b < blocks(); ++b) out.block(b * k_, b * k_, k_, k_) = M.block(b * k_, b * k_, k_, k_);
  return out;
}

Eigen::MatrixXd Model3::posterior_mean(const Eigen::MatrixXd& X) const {
  if (X.rows() != d_ || X.cols() < 1)
    throw InvalidArgument(fmt::format("Model 3: data must be {} x n with n >= 1", d_));
  const double n = static_cast<double>(X.cols());
  // Fact 8 per block: (n SigmaHat_b + Psi_0) / (nu_0 + n - k - 1), nu_0 - k - 1 = k - 1 = prior_scale.
  return project(n * core::second_moment(X) + prior_scale() * Eigen::MatrixXd::Identity(d_, d_)) /
         (n + prior_scale());
}

double model3_norm_failure_bound(int d, int k) {
  const Model3 model(d, k);
  return model.blocks() * std::pow(std::exp(2.0) / lemma30_norm_level, (k + 1) / 2.0);
}

}  // namespace dpb::lower
