#pragma once
// kumar2025 Algorithm 4 (App. F): pure eps-DP sparse PCA by the exponential mechanism over all supports
// of size k, scored by the top eigenvalue of the clipped second moment on the support (spec: kumar2025
// §2.5, §3.4, Lemmas 37-39). Exact enumeration, so only for small C(d, k).
#include <Eigen/Dense>
#include <vector>

#include "algorithms/privacy.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct ExpMechSupportParams {
  double tau = 0;                // clip level; 0 = sigma sqrt(2 log(2 n d / beta)) (spec: kumar2025 A26)
  double sigma2 = 0;             // sub-Gaussian proxy, used only for the default tau
  double beta = 0.1;             // used only for the default tau
  double max_supports = 100000;  // refuse when C(d, k) exceeds this (size guard)
};

// Every k-subset of {0..d-1} in lexicographic order (supports[r] has rank r). Throws dpb::InvalidArgument
// when C(d, k) > max_supports.
std::vector<std::vector<Eigen::Index>> enumerate_supports(Eigen::Index d, Eigen::Index k,
                                                          double max_supports);
// C(d, k) as a double (exact below 2^53).
double support_count(Eigen::Index d, Eigen::Index k);

struct ExpMechSupportResult {
  Eigen::VectorXd v_hat;                 // unit, supported on `support`
  std::vector<Eigen::Index> support;     // S_hat
  Eigen::Index support_rank = 0;         // its index in enumerate_supports order
  std::vector<double> scores;            // q_D(S) for every S, in enumerate_supports order
  double tau = 0, sensitivity = 0;       // clip level and Delta_q = 2 k tau^2 / n
  Eigen::Index clipped_coordinates = 0;  // entries of X with |x| > tau
};

ExpMechSupportResult exponential_support_selection(const Eigen::MatrixXd& X, Eigen::Index k,
                                                   const Privacy& privacy, const ExpMechSupportParams& params,
                                                   core::Rng& rng);

}  // namespace dpb::alg
