#pragma once
// kumar2025 Model 4, the spiked inverse-Wishart prior of Theorem 7 (spec: kumar2025 §5.4):
// M = (1 - gamma) I_d + gamma v v^T, Sigma ~ InvWishart((nu - d - 1) M, nu) (so E Sigma = M), x_i iid
// N(0, Sigma). The paper fixes nu = 1600 d / gamma^2 (rounded up here); a smaller nu can be given for
// tests and cheap experiments (it changes only the concentration of Sigma around M, Lemma 32).
// Exact posterior mean (Fact 8): E[Sigma | X] = ((nu - d - 1) M + n SigmaHat) / (nu + n - d - 1).
#include <Eigen/Dense>
#include <optional>

#include "core/rng.hpp"

namespace dpb::lower {

class Model4 {
 public:
  // v: the spike (normalised here; nonzero); gamma in (0, 1); nu > d + 1 (default ceil(1600 d / gamma^2)).
  // Throws dpb::InvalidArgument otherwise. The spec's gamma range is (0.1, 0.5) (Thm 7); it is not enforced
  // so that the sampler can be tested at other gaps.
  Model4(const Eigen::VectorXd& v, double gamma, std::optional<double> nu = std::nullopt);

  int d() const { return static_cast<int>(v_.size()); }
  double gamma() const { return gamma_; }
  double nu() const { return nu_; }
  const Eigen::VectorXd& spike() const { return v_; }
  const Eigen::MatrixXd& prior_mean() const { return m_; }  // M

  Eigen::MatrixXd draw_covariance(core::Rng& rng) const;
  Eigen::MatrixXd sample(const Eigen::MatrixXd& sigma, Eigen::Index n, core::Rng& rng) const;
  Eigen::MatrixXd posterior_mean(const Eigen::MatrixXd& X) const;

 private:
  Eigen::VectorXd v_;
  double gamma_;
  double nu_;
  Eigen::MatrixXd m_;       // M
  Eigen::MatrixXd m_root_;  // M^{1/2} = sqrt(1 - gamma)(I - v v^T) + v v^T
};

// The paper's nu = ceil(1600 d / gamma^2).
double model4_default_nu(int d, double gamma);

}  // namespace dpb::lower
