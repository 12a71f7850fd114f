#include "lowerbounds/constructions/kumar2025_priors.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"

namespace dpb::lower {

Eigen::MatrixXd scaled_inverse_wishart(const Eigen::MatrixXd& root, double scale, double nu, core::Rng& rng) {
  const Eigen::Index p = root.rows();
  if (p < 1 || root.cols() != p)
    throw InvalidArgument("inverse Wishart: the root must be a nonempty square matrix");
  if (!(scale > 0) || !(nu > static_cast<double>(p) - 1))
    throw InvalidArgument(fmt::format(
        "inverse Wishart: need scale > 0 and nu > p - 1 = {}, got scale = {}, nu = {}", p - 1, scale, nu));
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(p, p);
  for (Eigen::Index i = 0; i < p; ++i) {
    L(i, i) = std::sqrt(core::chi_squared(rng, nu - static_cast<double>(i)));
    for (Eigen::Index j = 0; j < i; ++j) L(i, j) = core::standard_normal(rng);
  }
  // W^{-1} = L^{-T} L^{-1}, so Sigma = scale (L^{-1} R)^T (L^{-1} R).
  const Eigen::MatrixXd half = L.triangularView<Eigen::Lower>().solve(root);
  Eigen::MatrixXd sigma = scale * half.transpose() * half;
  return 0.5 * (sigma + sigma.transpose());
}

Eigen::MatrixXd gaussian_samples(const Eigen::MatrixXd& sigma, Eigen::Index n, core::Rng& rng,
                                 const std::string& model) {
  if (n < 1) throw InvalidArgument(fmt::format("{}: n = {} samples must be >= 1", model, n));
  if (sigma.rows() < 1 || sigma.cols() != sigma.rows() || !sigma.isApprox(sigma.transpose()))
    throw InvalidArgument(fmt::format("{}: Sigma must be a nonempty symmetric matrix", model));
  const core::EigenPairs eig = core::symmetric_eigenpairs(sigma);
  const Eigen::VectorXd& values = eig.values;
  if (values.minCoeff() < -psd_tolerance * values.cwiseAbs().maxCoeff())
    throw InvalidArgument(
        fmt::format("{}: Sigma is not positive semidefinite (lambda_min = {})", model, values.minCoeff()));
  const Eigen::MatrixXd root =
      eig.vectors * values.cwiseMax(0.0).cwiseSqrt().asDiagonal() * eig.vectors.transpose();
  return root * core::standard_normal_matrix(rng, sigma.rows(), n);
}

}  // namespace dpb::lower
