#pragma once
// baseline.exponential_mechanism_pca: the pure eps-DP exponential mechanism for the top principal
// direction (Chaudhuri, Sarwate, Sinha 2013, "PPCA"; liu2022 §1 cites it as [14]). With the records
// clipped to ||x|| <= beta (a radius fixed in advance), the score q(v) = v^T S v, S = sum_i x_i x_i^T,
// changes by at most beta^2 when one record is replaced (or added or removed), so sampling v from
// exp(eps q(v) / (2 beta^2)) on the sphere is (eps, 0)-DP. It is rotation-equivariant: its risk is the
// same for every direction v1 of a rotation-invariant family, which is what lets one model instance
// stand for a lower bound's whole packing (the (eps, 0)-DP falsification checks).
#include <Eigen/Dense>

#include "algorithms/baselines/psd_samples.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg::baselines {

AlgorithmEntry exponential_mechanism_pca_entry();

// The score matrix S = sum_i c_i A_i with c_i = min{1, beta^2 / Tr A_i} (for A_i = x_i x_i^T: l2 clipping
// of x_i), whose quadratic form v^T S v is the score. Counts "clipped" in `diagnostics`. Throws
// dpb::InvalidArgument unless beta > 0.
Eigen::MatrixXd exponential_mechanism_scores(const PsdSamples& data, double beta, Diagnostics& diagnostics);
// The inverse temperature eps / (2 beta^2) of the Bingham density exp(eps v^T S v / (2 beta^2)). Throws
// dpb::InvalidArgument unless eps, beta > 0.
double exponential_mechanism_inverse_temperature(double beta, double epsilon);

}  // namespace dpb::alg::baselines
