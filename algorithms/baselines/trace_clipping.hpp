#pragma once
// Baseline clipping of dugler2026 §2.9 / §7 F.1: trace clipping A_i <- A_i min{1, beta^2 / Tr A_i}
// (for A_i = x x^T exactly ||x||_2 <= beta) and, for the power method, the extra l1-type clip
// sum_j sqrt((A_i)_jj) <= alpha.
#include <Eigen/Dense>

#include "algorithms/baselines/psd_samples.hpp"
#include "algorithms/estimate.hpp"

namespace dpb::alg::baselines {

// c_i = min{1, beta^2 / Tr A_i} (1 when Tr A_i = 0). Adds the number of c_i < 1 to
// diagnostics.counters["clipped"]. beta > 0.
Eigen::VectorXd trace_clip_weights(const PsdSamples& data, double beta, Diagnostics& diagnostics);

// c_i = min{1, beta^2 / Tr A_i, alpha^2 / (sum_j sqrt((A_i)_jj))^2}, so that c_i A_i has trace <= beta^2
// and sum_j sqrt((c_i A_i)_jj) <= alpha (spec: dugler2026 §2.9 DP-Power-Method, recommended joint
// rule). Counts "clipped" (any c_i < 1) and "clipped_by_alpha" (the alpha term is the binding one).
Eigen::VectorXd trace_and_l1_clip_weights(const PsdSamples& data, double beta, double alpha,
                                          Diagnostics& diagnostics);

}  // namespace dpb::alg::baselines
