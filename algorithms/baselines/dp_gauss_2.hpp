#pragma once
// baseline.dp_gauss_2: DP-Gauss-2 of dugler2026 §2.9 (Dwork, Talwar, Thakurta, Zhang 2014, Alg. 2):
// a noisy eigengap test, then the Gaussian mechanism on the projector V_k V_k^T with noise scaled by
// the inverse gap. `corrected` mode runs the gap test as Propose-Test-Release with an explicit budget
// split and a private fallback; `faithful` keeps the paper's resampling and is NOT private.
#include "algorithms/registry.hpp"

namespace dpb::alg::baselines {

AlgorithmEntry dp_gauss_2_entry();

// Frobenius sensitivity bound of the top-k projector of a matrix whose k-th eigengap is >= gap, when
// one summand (PSD, trace <= 1) is replaced or added/removed: Davis–Kahan in the Yu–Wang–Samworth
// form, ||P - P'||_F = sqrt(2) ||sin Theta||_F <= 2 sqrt(2) min(sqrt(k) ||D||_op, ||D||_F) / gap with
// ||D||_op <= 1 and ||D||_F <= psd_sum_sensitivity(1, neighbours), capped by sqrt(2k). gap > 0.
double projector_sensitivity(double gap, Eigen::Index k, Neighbours neighbours);

}  // namespace dpb::alg::baselines
