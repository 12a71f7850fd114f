#pragma once
// The Gaussian mechanism: release f(D) + N(0, sigma^2 I) for an l2 sensitivity Delta.
#include <Eigen/Dense>

#include "core/rng.hpp"

namespace dpb::alg {

// Classical calibration sigma = Delta sqrt(2 log(1.25/delta)) / eps (Dwork & Roth Thm A.1; liu2022
// Lemma 2.4; cai2024 Lemma 1). Valid only for 0 < eps < 1 and 0 < delta < 1: outside that range it
// throws dpb::InvalidArgument (the analytic calibration has no such restriction).
double classical_gaussian_sigma(double sensitivity, double epsilon, double delta);
bool classical_gaussian_applies(double epsilon, double delta);

// Analytic Gaussian mechanism (Balle & Wang 2018, Thm 8): the smallest sigma with
// delta(eps; sigma) <= delta, found by root finding on the exact privacy profile. Any eps > 0,
// 0 < delta < 1.
double analytic_gaussian_sigma(double sensitivity, double epsilon, double delta);

// Exact privacy profile of the Gaussian mechanism with noise multiplier z = sigma / Delta:
//   delta(eps) = Phi(1/(2z) - eps z) - e^eps Phi(-1/(2z) - eps z)      (Balle & Wang 2018, Thm 8).
// It is tight: no smaller delta holds at this eps for the worst-case pair of neighbours.
double gaussian_delta(double noise_multiplier, double epsilon);
// The smallest eps >= 0 with gaussian_delta(z, eps) <= delta (0 if already delta(0) <= delta).
double gaussian_epsilon(double noise_multiplier, double delta);

// v + N(0, sigma^2 I), in place.
void add_gaussian_noise(Eigen::Ref<Eigen::MatrixXd> v, double sigma, core::Rng& rng);

}  // namespace dpb::alg
