#pragma once
// The Wishart mechanism, the noise of mutant.wishart (plugged into
// baseline.dp_gauss through its SecondMomentRelease seam, algorithms/baselines/cai2024_dp_gauss.hpp).
#include <Eigen/Dense>

#include "core/rng.hpp"

namespace dpb::alg::mutants {

// The Wishart mechanism (Jiang, Xie, Zhang 2016; the bug report is diffprivlib issue #23): for
// C = (1/n) sum_i x_i x_i^T with ||x_i|| <= 1, release C + W with W ~ Wishart_d(d + 1, (3/(2 n eps)) I),
// W = G G^T for G a d x (d + 1) matrix of iid N(0, 3/(2 n eps)). It is claimed eps-DP, but W is
// positive semidefinite: under D' every output M has M - C' PSD, so an output with u^T M u < u^T C' u
// (possible under D) has probability 0 under D' and no finite eps bounds the privacy loss.
double wishart_scale(Eigen::Index n, double epsilon);  // 3 / (2 n eps)
Eigen::MatrixXd wishart_noise(core::Rng& rng, Eigen::Index d, Eigen::Index degrees_of_freedom, double scale);
Eigen::MatrixXd wishart_release(const Eigen::MatrixXd& C, Eigen::Index n, double epsilon, core::Rng& rng);

}  // namespace dpb::alg::mutants
