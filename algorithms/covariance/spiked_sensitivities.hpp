#pragma once
// The sensitivity bounds of cai2024 under the spiked model Sigma = U Lambda U^T + sigma^2 I, for the
// replace-with-a-fresh-copy neighbours its proofs use (spec: cai2024 §2.3, §2.4, §3.1). They are
// high-probability bounds with unspecified absolute constants C2, C3, C4; the defaults come from the
// spec's Monte Carlo calibration (spec: cai2024 A1) and are re-measured in
// tests/algorithms/covariance/gaussian_mechanism_pca_test.cpp.
#include <Eigen/Dense>

namespace dpb::alg {

// The dimensions and model quantities every bound reads. lambda > 0 is the signal strength (the
// spikes exclude sigma^2), sigma2 > 0 the nuisance variance, 1 <= r, n >= 1, p >= 1.
struct SpikedSizes {
  Eigen::Index n = 0;
  Eigen::Index p = 0;
  Eigen::Index r = 0;
  double lambda = 0;
  double sigma2 = 0;
};

// Delta1 = C2 (sigma^2/lambda + sqrt(sigma^2/lambda)) sqrt(p (r + C5 log n)) / n, the Frobenius
// sensitivity of Uhat Uhat^T (cai2024 Lemma 3, eq. (6); C5 = 4 is the form of the paper's §6.1).
double eigenvector_sensitivity(const SpikedSizes& s, double C2, double C5);

// Delta2 = C3 (lambda (r + log n) + sigma^2 (p + log n)) / n, the Frobenius sensitivity of Shat and
// hence the l2 sensitivity of its eigenvalue vector (cai2024 Lemma 4, eq. (7)).
double eigenvalue_sensitivity(const SpikedSizes& s, double C3);

// Delta3 = (C4 / sqrt(p ∧ n)) (lambda (r + log n) + sigma^2 (p + log n)) / n, the sensitivity of the
// bulk-eigenvalue estimator of sigma^2 (cai2024 Thm 5.1).
double noise_variance_sensitivity(const SpikedSizes& s, double C4);

// Throws dpb::InvalidArgument unless the sizes and quantities are in the ranges above and every
// constant is finite and > 0.
void validate(const SpikedSizes& s, const char* owner);

}  // namespace dpb::alg
