#pragma once
// baseline.noisy_power_method: "DP-Power-Method" of dugler2026 §2.9, the noisy power method of Hardt &
// Price 2014 (Alg. "private power method") in the version of Nicolas et al. 2024, on the sum of the
// clipped A_i.
#include <Eigen/Dense>
#include <limits>
#include <memory>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/registry.hpp"
#include "core/rng.hpp"

namespace dpb::alg::baselines {

AlgorithmEntry noisy_power_method_entry();

// A bound on the l2 (Frobenius) sensitivity of S X for orthonormal X when one clipped summand changes:
// min(trace, coherence ||X||_max). X is a released value (or the public X_0), so the bound is public.
struct PowerSensitivity {
  double trace = std::numeric_limits<double>::infinity();
  double coherence = 0;
  double at(const Eigen::MatrixXd& X) const;
};

// Per-iteration noise: G_l iid N(0, sd_l^2) with sd_l = multiplier * scaled_to.at(X_{l-1}); the ledger
// records each release with the true sensitivity `sensitivity.at(X_{l-1})`.
// Corrected mode: scaled_to = sensitivity, the two bounds on ||(A' - A) X_{l-1}||_F (see
// noisy_power_method.cpp), and multiplier = sqrt(L) z, z the (eps, delta) noise multiplier of one Gaussian
// release (Gaussian-DP composition of L releases). Faithful mode: scaled_to = {inf, beta alpha} and
// multiplier = eps^{-1} sqrt(4 L log(1/delta)) (spec dugler2026 §2.9, recommended implementation), while
// `sensitivity` stays the corrected bound.
struct PowerNoiseRule {
  PowerSensitivity scaled_to;
  PowerSensitivity sensitivity;
  double multiplier = 0;
  double sd(const Eigen::MatrixXd& X) const { return multiplier * scaled_to.at(X); }
};

// L iterations of Y_l = S X_{l-1} + G_l, X_l = QR(Y_l) from X0 (d x k, orthonormal); returns X_L.
// Each Y_l is a release of the Gaussian mechanism (column-major standard normals, one d x k block per
// iteration), recorded in `ledger` as calibrated for `per_iteration`.
// With `transcript`, each iteration's release (query X_{l-1}, value Y_l, sd_l) is appended to it.
Eigen::MatrixXd noisy_power_iterations(const Eigen::MatrixXd& S, const Eigen::MatrixXd& X0, int L,
                                       const PowerNoiseRule& rule, const Privacy& per_iteration,
                                       Ledger& ledger, core::Rng& rng,
                                       std::vector<GaussianRelease>* transcript = nullptr);

// The estimator behind noisy_power_method_entry() with one seam for the mutant zoo: with
// `compose_iterations` false every iteration is calibrated to the whole (eps, delta) instead of its
// Gaussian-DP share (multiplier z, not sqrt(L) z), while the claim stays the real one; its ledger records
// each iteration at the budget it really got, so the composed spend exceeds the claim.
std::unique_ptr<Estimator> make_noisy_power_method(const core::ParamMap& params, bool compose_iterations = true);

}  // namespace dpb::alg::baselines
