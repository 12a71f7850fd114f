#include "lowerbounds/constructions/kumar2025_model4.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "lowerbounds/constructions/kumar2025_priors.hpp"

namespace dpb::lower {

namespace {

constexpr double paper_nu_factor = 1600;  // nu = 1600 d / gamma^2

}  // namespace

double model4_default_nu(int d, double gamma) { return std::ceil(paper_nu_factor * d / (gamma * gamma)); }

Model4::Model4(const Eigen::VectorXd& v, double gamma, std::optional<double> nu) {
  if (v.size() < 1) throw InvalidArgument("Model 4 (kumar2025): the spike v must be nonempty");
  if (!(gamma > 0 && gamma < 1))
    throw InvalidArgument(fmt::format("Model 4 (kumar2025): gamma = {} must lie in (0, 1)", gamma));
  v_ = core::safe_normalize(v);
  gamma_ = gamma;
  const int d = static_cast<int>(v_.size());
  nu_ = nu.value_or(model4_default_nu(d, gamma));
  if (!(nu_ > d + 1.0))
    throw InvalidArgument(
        fmt::format("Model 4 (kumar2025): nu = {} must exceed d + 1 = {} (E Sigma exists)", nu_, d + 1));
  const Eigen::MatrixXd vv = v_ * v_.transpose();
  const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(d, d);
  m_ = (1 - gamma) * identity + gamma * vv;
  m_root_ = std::sqrt(1 - gamma) * (identity - vv) + vv;
}

Eigen::MatrixXd Model4::draw_covariance(core::Rng& rng) const {
  return scaled_inverse_wishart(m_root_, nu_ - d() - 1, nu_, rng);
}

Eigen::MatrixXd Model4::sample(const Eigen::MatrixXd& sigma, Eigen::Index n, core::Rng& rng) const {
  return gaussian_samples(sigma, n, rng, "kumar2025.model4");
}

Eigen::MatrixXd Model4::posterior_mean(const Eigen::MatrixXd& X) const {
  if (X.rows() != d() || X.cols() < 1)
    throw InvalidArgument(fmt::format("Model 4: data must be {} x n with n >= 1", d()));
  const double n = static_cast<double>(X.cols()), prior = nu_ - d() - 1;
  return (prior * m_ + n * core::second_moment(X)) / (prior + n);
}

}  // namespace dpb::lower
