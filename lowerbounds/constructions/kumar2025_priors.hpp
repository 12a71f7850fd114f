#pragma once
// Draws shared by kumar2025's Bayesian lower-bound models (spec: kumar2025 §5.1 Model 3, §5.4 Model 4):
// the inverse-Wishart prior on Sigma, and Gaussian data given Sigma (also for the Thm 4 family).
#include <Eigen/Dense>
#include <string>

#include "core/rng.hpp"

namespace dpb::lower {

// Sigma ~ InvWishart(scale * R R, nu) in Fact 8's convention (density ~ det(Sigma)^{-(nu+p+1)/2}
// exp(-Tr(Psi Sigma^{-1})/2), E Sigma = Psi / (nu - p - 1)), for a symmetric p x p root R:
// Sigma = scale R W^{-1} R with W ~ Wishart(I_p, nu) drawn by Bartlett's decomposition W = L L^T,
// L lower triangular, L_ii = sqrt(chi^2_{nu - i}) (i = 0..p-1), L_ij ~ N(0, 1) below the diagonal — O(p^3)
// whatever nu, and nu may be real. Needs scale > 0 and nu > p - 1; throws dpb::InvalidArgument otherwise.
Eigen::MatrixXd scaled_inverse_wishart(const Eigen::MatrixXd& root, double scale, double nu, core::Rng& rng);

// n iid N(0, sigma) samples as the columns of a d x n matrix, x = sigma^{1/2} g with the symmetric root
// from the eigendecomposition, so a singular sigma (Lemma 19's Sigma_star has lambda_min = 0) works too.
// Throws dpb::InvalidArgument naming `model` if sigma is not symmetric positive semidefinite (an eigenvalue
// below -psd_tolerance * ||sigma||_op) or n < 1.
inline constexpr double psd_tolerance = 1e-10;
Eigen::MatrixXd gaussian_samples(const Eigen::MatrixXd& sigma, Eigen::Index n, core::Rng& rng,
                                 const std::string& model);

}  // namespace dpb::lower
