#pragma once
// baseline.noisy_power_method: "DP-Power-Method" of dugler2026 §2.9, the noisy power method of Hardt &
// Price 2014 (Alg. "private power method") in the version of Nicolas et al. 2024, on the sum of the
// clipped A_i.
#include <Eigen/Dense>
#include <limits>
#include <memory>
#include <vector>

#include "algorithms/registry.hpp"
#include "core/rng.hpp"

namespace dpb::alg::baselines {

AlgorithmEntry noisy_power_method_entry();

// Per-iteration noise: G_l iid N(0, sd_l^2) with
//   sd_l = multiplier * min(trace_sensitivity, coherence_sensitivity * ||X_{l-1}||_max).
// Corrected mode: the two sensitivities bound ||(A' - A) X_{l-1}||_F (see noisy_power_method.cpp) and
// multiplier = sqrt(L) z, z the (eps, delta) noise multiplier of one Gaussian release (Gaussian-DP
// composition of L releases). Faithful mode: trace_sensitivity = inf, coherence_sensitivity = beta alpha,
// multiplier = eps^{-1} sqrt(4 L log(1/delta)) (spec dugler2026 §2.9, recommended implementation).
struct PowerNoiseRule {
  double trace_sensitivity = std::numeric_limits<double>::infinity();
  double coherence_sensitivity = 0;
  double multiplier = 0;
  double sd(const Eigen::MatrixXd& X) const;
};

// L iterations of Y_l = S X_{l-1} + G_l, X_l = QR(Y_l) from X0 (d x k, orthonormal); returns X_L.
// Noise is drawn by add_gaussian_noise (column-major standard normals), one d x k block per iteration.
// With `transcript`, each iteration's release (query X_{l-1}, value Y_l, sd_l) is appended to it.
Eigen::MatrixXd noisy_power_iterations(const Eigen::MatrixXd& S, const Eigen::MatrixXd& X0, int L,
                                       const PowerNoiseRule& rule, core::Rng& rng,
                                       std::vector<GaussianRelease>* transcript = nullptr);

// The estimator behind noisy_power_method_entry() with one seam for the mutant zoo: with
// `compose_iterations` false every iteration is calibrated to the whole (eps, delta) instead of its
// Gaussian-DP share (multiplier z, not sqrt(L) z), while the claim stays the real one.
std::unique_ptr<Estimator> make_noisy_power_method(const core::ParamMap& params, bool compose_iterations = true);

}  // namespace dpb::alg::baselines
