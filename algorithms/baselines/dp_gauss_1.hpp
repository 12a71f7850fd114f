#pragma once
// baseline.dp_gauss_1: DP-Gauss-1 of dugler2026 §2.9, i.e. Analyze Gauss (Dwork, Talwar, Thakurta,
// Zhang 2014, Alg. 1) on the trace-clipped SUM of the A_i.
#include <Eigen/Dense>
#include <string>

#include "algorithms/baselines/analyze_gauss.hpp"
#include "algorithms/baselines/dugler2026_baseline_params.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg::baselines {

AlgorithmEntry dp_gauss_1_entry();
// Its parameters (the mutants of algorithms/mutants read through them too).
FieldTable<DuglerBaselineParams> dp_gauss_1_fields();

// The estimator with these parameters (the registry's factory; the mutants' seam).
std::unique_ptr<Estimator> make_dp_gauss_1(const DuglerBaselineParams& params);

// Steps 3-4 of DP-Gauss-1 (shared with DP-Gauss-2's fallback): noise the clipped sum S (every summand
// PSD with trace <= clip_radius^2, clip_radius = beta in every real run) for `budget` and return its top-k
// eigenpairs. The noise is calibrated to beta^2 when `as_printed` (the paper's Delta_1; add/remove-correct),
// else to psd_sum_sensitivity(beta^2, budget.neighbours); either way the release is recorded in `ledger` as
// `step` with the true sensitivity psd_sum_sensitivity(clip_radius^2, budget.neighbours). Records "noise_sd"
// in diagnostics.
core::EigenPairs dp_gauss_1_release(const Eigen::MatrixXd& clipped_sum, Eigen::Index k, double beta,
                                    double clip_radius, const Privacy& budget, GaussianCalibration calibration,
                                    bool as_printed, const std::string& step, Ledger& ledger, core::Rng& rng,
                                    Diagnostics& diagnostics);

}  // namespace dpb::alg::baselines
