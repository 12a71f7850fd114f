#pragma once
// ADADPO (Adaptive Private Oja's), dugler2026 Algorithm 2 (spec §2.2): per batch, PRIVRANGE on one
// half, TRUNCATEDMEAN on the other, then Oja on P_{S_Q}(mean) + Q N + Pi Z with an adaptive sigma_t.
#include "algorithms/pca/dugler2026_adaptive_step.hpp"
#include "algorithms/pca/dugler2026_learning_rates.hpp"

namespace dpb::alg::dugler2026 {

// Each of the T steps runs PRIVRANGE at failure probability zeta / (divisor T) (Alg. 2 line 3).
inline constexpr double adadpo_range_zeta_divisor = 2.0;

struct AdadpoParams {
  BatchSettings batch;  // Thm 2: B = n / log n, even, auto-increased for feasibility
  LearningRateSettings lr;
  AdaptiveSettings adaptive;
  // R_t's log argument (spec ambiguity 8): Bdk/(2 zeta) as in the pseudo-code (default) or the
  // proof's BdkT/zeta.
  bool proof_log_argument = false;
};

// Lines 3-8 (inside QR) for the batch [first, first + B) at Q, T steps planned: out =
// P_{S_Q}(Gbar_t) + Q N_t + Pi Z_t. The projection is what makes the step private (Lemma 2: noise lives
// only in S_Q, truncation moves the mean out of it). Untouched when the step is skipped. Records the
// step's releases in `ledger` (adaptive_mean; the Gaussian as ws.mean_noise).
AdaptiveStepTrace adadpo_direction(const core::SampleMatrices& S, Eigen::Index first, Eigen::Index B,
                                   Eigen::Index T, const Eigen::MatrixXd& Q, const Privacy& privacy,
                                   const AdadpoParams& p, AdaptiveWorkspace& ws, Ledger& ledger,
                                   core::Rng& rng, Eigen::Ref<Eigen::MatrixXd> out);

// The batch plan ADADPO uses on n samples (feasibility per spec ambiguity 2).
BatchPlan adadpo_plan(const AdadpoParams& p, Eigen::Index n, Eigen::Index d, Eigen::Index k,
                      const Privacy& privacy, const std::string& owner);

Estimate adadpo(const Input& in, const AdadpoParams& p, core::Rng& rng, const std::string& prefix = "");
PrivacyClaim adadpo_claim(const AdadpoParams& p, const Input& in);

}  // namespace dpb::alg::dugler2026
