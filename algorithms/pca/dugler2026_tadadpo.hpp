#pragma once
// TADADPO (Tangent Adaptive Private Oja's), dugler2026 Algorithm 3 (spec §2.3): the refinement phase,
// working on tangent samples Pi A_i Q with noise isotropic on T_Q only.
#include <optional>

#include "algorithms/pca/dugler2026_adaptive_step.hpp"
#include "algorithms/pca/dugler2026_learning_rates.hpp"

namespace dpb::alg::dugler2026 {

enum class TadadpoStart {
  random,  // Haar-random Q_0 (no warm start; Thm 3 assumes one)
  oracle,  // the oracle's target V_k (data-independent; simulation only, to study the local phase)
};

// Each of the T steps runs PRIVRANGE at failure probability zeta / (divisor T) (Alg. 3 line 3).
inline constexpr double tadadpo_range_zeta_divisor = 8.0;

struct TadadpoParams {
  BatchSettings batch;  // ambiguity 15: ADADPO's candidates by default (n / log n)
  LearningRateSettings lr;
  AdaptiveSettings adaptive;  // radius_constant = C_R (3 recommended)
  TadadpoStart start = TadadpoStart::random;
};

// Lines 2-9 (inside QR) for the batch [first, first + B) at Q, T steps planned:
// out = Pi (Ybar_t + Z_t). Untouched when the step is skipped. Records the step's releases in `ledger`
// (adaptive_mean; the Gaussian as ws.mean_noise).
AdaptiveStepTrace tadadpo_direction(const core::SampleMatrices& S, Eigen::Index first, Eigen::Index B,
                                    Eigen::Index T, const Eigen::MatrixXd& Q, const Privacy& privacy,
                                    const TadadpoParams& p, AdaptiveWorkspace& ws, Ledger& ledger,
                                    core::Rng& rng, Eigen::Ref<Eigen::MatrixXd> out);

// The batch plan TADADPO uses on n samples (feasibility per spec ambiguity 2).
BatchPlan tadadpo_plan(const TadadpoParams& p, Eigen::Index n, Eigen::Index d, Eigen::Index k,
                       const Privacy& privacy, const std::string& owner);

// Q0: the private starting point (e.g. ADADPO's output on disjoint samples); when null, p.start decides.
Estimate tadadpo(const Input& in, const TadadpoParams& p, core::Rng& rng, const Eigen::MatrixXd* Q0 = nullptr,
                 const std::string& prefix = "");
PrivacyClaim tadadpo_claim(const TadadpoParams& p, const Input& in);

}  // namespace dpb::alg::dugler2026
