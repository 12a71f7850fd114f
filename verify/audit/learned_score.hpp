#pragma once
// A score learned from the mechanism itself (issue 18, "a learned score ... fit on one half, evaluated on the
// other"): Fisher's linear discriminant over every number an output releases, fit on training runs of D and
// D' that the audit's own runs never reuse, so its threshold tests keep their validity. It needs no canary
// direction or algorithm-specific statistic: for a Gaussian release of a linear statistic it converges to the
// likelihood ratio (mean_projection, second_moment_lr), and it weighs every part of a release at once.
#include <Eigen/Dense>
#include <vector>

#include "algorithms/estimate.hpp"

namespace dpb::verify {

inline constexpr const char* kLearnedScore = "learned_linear";

// Every number `e` releases, in a fixed order: the upper triangles (with the diagonal) of Q Q^T and, with
// eigenvalues, of Q diag(lambda) Q^T (both unchanged by the signs of Q's columns), the eigenvalues, the upper
// triangle of Sigma, the mean, the scalar. Empty for an output that releases nothing (BOTTOM).
Eigen::VectorXd output_features(const alg::Estimate& e);

// w = (S + r I)^-1 (m' - m): m, m' the mean features on D and D', S their pooled covariance, r = 1e-9 tr(S) / p
// + 1e-300 (features that never vary get no weight rather than an infinite one). Throws dpb::InvalidArgument
// unless both sides have at least two vectors, all of one length >= 1.
Eigen::VectorXd fisher_direction(const std::vector<Eigen::VectorXd>& on_d,
                                 const std::vector<Eigen::VectorXd>& on_d_prime);

}  // namespace dpb::verify
