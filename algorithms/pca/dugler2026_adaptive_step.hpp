#pragma once
// The part of one step shared by ADADPO (Alg. 2 lines 3-6) and TADADPO (Alg. 3 lines 2-7): PRIVRANGE on
// the range half, the radius, TRUNCATEDMEAN on the mean half and the Gaussian scale sigma_t; plus the
// constants, schema, feasibility requirement and diagnostics both share.
#include <Eigen/Dense>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/pca/dugler2026_batch_rules.hpp"
#include "algorithms/pca/dugler2026_common.hpp"
#include "algorithms/pca/dugler2026_learning_rates.hpp"
#include "algorithms/pca/dugler2026_private_range.hpp"
#include "algorithms/pca/dugler2026_truncated_mean.hpp"

namespace dpb::alg::dugler2026 {

struct AdaptiveSettings {
  double K = 1.0;      // Assumption A.4 / B.4 tail constant (§7: K = 1)
  double a = 1.0;      // sub-Weibull exponent (§7: a = 1)
  double zeta = 0.01;  // failure probability (§7: 0.01)
  PrivateRangeSettings range;
  double radius_constant = 3.0;  // Alg. 2 line 4 "3"; Alg. 3 C_R (3 recommended, ambiguity 3)
  double noise_constant = 8.0;   // Alg. 2 line 6 / Alg. 3 line 7 "8"
  GaussianCalibration calibration = kDugler2026Calibration;  // spec ambiguity 14
  bool stop_on_bottom = false;        // range_fallback: skip_step (default) | stop
  bool skip_on_empty_center = false;  // center_fallback: zero (default) | skip_step
  double feasibility_margin = 2.0;    // ambiguity 2
  // PRIVRANGE block size: b >= d (ambiguity 2, default), b >= K^2 d log(k m / zeta') (Theorem 5) or b >= 1
  // (ambiguity 10).
  enum class BlockMin { d, theory, one } block_min = BlockMin::d;
};

struct AdaptiveWorkspace {
  Eigen::MatrixXd G;     // d x (k c): a chunk of c products A_i Q (or Pi A_i Q), never a whole half batch
  Eigen::MatrixXd mean;  // d x k
  Eigen::MatrixXd kk;
  PrivateRangeWorkspace range;
  TruncatedMeanWorkspace tm;
  NoiseWorkspace noise;
  // What a step records, built once per run: the step names of PRIVRANGE's histogram and of the center
  // histograms, and the entry of the Gaussian on the mean half, whose sensitivity, sd and part (the mean
  // half's) adaptive_mean sets each step.
  std::string range_step, center_step;
  LedgerEntry mean_noise;
  AdaptiveWorkspace() { name_steps("", "Gaussian mean"); }
  void resize(Eigen::Index d, Eigen::Index k);
  // Step names `label` + "PRIVRANGE histogram (range half)", ..., `label` + `noise` + " (mean half)".
  void name_steps(const std::string& label, const std::string& noise);
};

struct AdaptiveStepTrace {
  std::optional<double> Lhat;  // nullopt: BOTTOM
  double R = 0;                // truncation radius R_t / r_t
  double sigma = 0;            // Gaussian scale sigma_t
  bool skipped = false;        // fallback taken: Q_t = Q_{t-1}
  bool stop = false;           // range_fallback = stop: return Q_{t-1}
  PrivateRangeReport range;
  TruncatedMeanReport tm;
};

// sigma_t = c R sqrt(dk) / (B eps) sqrt(2 log(2.5/delta)) for c = noise_constant (classical), i.e. the
// Gaussian mechanism at (eps/2, delta/2) for sensitivity (c/2) R sqrt(dk)/B (= 2 R sqrt(dk)/m, m = B/2).
double adaptive_noise_sigma(const AdaptiveSettings& s, double R, Eigen::Index d, Eigen::Index k,
                            Eigen::Index B, const Privacy& privacy);

// One step's data part on samples [first, first + B) at frame Q: PRIVRANGE at (eps, delta) with
// failure probability range_zeta on the first half, R = radius_constant K sqrt(Lhat) log^a(log_argument),
// TRUNCATEDMEAN at (eps/2, delta/2) on the second half into ws.mean, sigma_t. `tangent`: use
// Pi A_i Q (Alg. 3 line 3). BOTTOM or Lhat = 0 (the zero bin) skip the step (spec ambiguity 2).
// Records PRIVRANGE's histogram in the range half's part and the dk center histograms in the mean half's
// (parts named by their first record, composed in parallel), and sets ws.mean_noise for the caller's
// Gaussian in the mean half's part: sensitivity 2 R sqrt(dk)/(B/2) of the clamped mean, sd sigma_t,
// calibrated for (eps/2, delta/2).
AdaptiveStepTrace adaptive_mean(const core::SampleMatrices& S, Eigen::Index first, Eigen::Index B,
                                const Eigen::MatrixXd& Q, bool tangent, double range_zeta,
                                double log_argument, const Privacy& privacy, const AdaptiveSettings& s,
                                AdaptiveWorkspace& ws, Ledger& ledger, core::Rng& rng);

// The smallest feasible batch for T steps when PRIVRANGE runs at zeta / (zeta_divisor T).
BatchRequirement adaptive_requirement(Eigen::Index d, Eigen::Index k, const Privacy& privacy,
                                      const AdaptiveSettings& s, double zeta_divisor);

// The batch plan of an adaptive method on n samples: even batches (each splits into PRIVRANGE's and
// TRUNCATEDMEAN's halves), T by the settings' rule, each batch feasible for PRIVRANGE at
// zeta / (zeta_divisor T) (ADADPO: 2, TADADPO: 8; spec ambiguity 2).
BatchPlan adaptive_plan(const BatchSettings& batch, const AdaptiveSettings& s, Eigen::Index n, Eigen::Index d,
                        Eigen::Index k, const Privacy& privacy, double zeta_divisor, const std::string& owner);

// The outer loop of Alg. 2 (lines 2-9) and Alg. 3 (lines 1-10) from Q_0: for t = 1..T, `direction` gives
// the bracket of the QR update for the batch starting at (t-1) B; fallbacks skip or stop; otherwise
// Q_t = QR(Q_{t-1} + eta_t D). Records every step and the batch plan in `e.diagnostics` and the skipped steps
// in `e.release_notes` (the releases are recorded in the ledger by `direction`'s mechanisms); returns Q_T.
using DirectionFn = std::function<AdaptiveStepTrace(Eigen::Index first, const Eigen::MatrixXd& Q,
                                                    Eigen::Ref<Eigen::MatrixXd> out)>;
Eigen::MatrixXd run_adaptive_steps(Eigen::MatrixXd Q, const BatchPlan& plan, const LearningRate& eta,
                                   const std::string& prefix, Estimate& e, const DirectionFn& direction);

// Counters and notes of step t.
void record_adaptive_step(Diagnostics& diag, Eigen::Index t, const AdaptiveStepTrace& tr,
                          const std::string& prefix = "");

// The settings' parameters (K, a, zeta, PRIVRANGE's, radius_constant, ..., range_block_min): schema and
// reader; `radius_ref` documents radius_constant (ADADPO's 3 or TADADPO's C_R).
FieldTable<AdaptiveSettings> adaptive_fields(const std::string& radius_ref);

}  // namespace dpb::alg::dugler2026
