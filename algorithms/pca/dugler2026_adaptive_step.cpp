#include "algorithms/pca/dugler2026_adaptive_step.hpp"

#include <fmt/format.h>
#include <cmath>

#include "algorithms/calibration_param.hpp"
#include "core/errors.hpp"

namespace dpb::alg::dugler2026 {

void AdaptiveWorkspace::resize(Eigen::Index d, Eigen::Index k) {
  G.resize(d, 0);  // sized on first use by MatrixChunks (one chunk or one PRIVRANGE block)
  mean.resize(d, k);
  kk.resize(k, k);
  noise.resize(d, k);
}

void AdaptiveWorkspace::name_steps(const std::string& label, const std::string& noise_name) {
  range_step = label + "PRIVRANGE histogram (range half)";
  center_step = label + "TRUNCATEDMEAN center histograms (mean half)";
  mean_noise.step = label + noise_name + " (mean half)";
  mean_noise.mechanism = Mechanism::gaussian;
  mean_noise.norm = SensitivityNorm::l2;
  // step t's Gaussian reads step t's mean half only: its part is set per step (adaptive_mean)
}

double adaptive_noise_sigma(const AdaptiveSettings& s, double R, Eigen::Index d, Eigen::Index k,
                            Eigen::Index B, const Privacy& privacy) {
  const double sensitivity =
      0.5 * s.noise_constant * R * std::sqrt(static_cast<double>(d * k)) / static_cast<double>(B);
  return gaussian_sigma(s.calibration, sensitivity, privacy.epsilon / 2, privacy.delta / 2);
}

AdaptiveStepTrace adaptive_mean(const core::SampleMatrices& S, Eigen::Index first, Eigen::Index B,
                                const Eigen::MatrixXd& Q, bool tangent, double range_zeta,
                                double log_argument, const Privacy& privacy, const AdaptiveSettings& s,
                                AdaptiveWorkspace& ws, Ledger& ledger, core::Rng& rng) {
  const Eigen::Index d = Q.rows(), k = Q.cols(), half = B / 2;
  AdaptiveStepTrace tr;
  // Range half I^R_t (Alg. 2 line 3 / Alg. 3 line 4); G_i = A_i Q (or Pi A_i Q) produced a block at a time.
  // Each step's PRIVRANGE reads its own range half, the records [first, first + half): a part of its own
  // (parallel composition, Lemma 2 step 5, Lemma 13); parts are named by their first record.
  MatrixChunks range_half(S, first, half, Q, tangent, ws.G, ws.kk);
  ledger.set_part(first);
  tr.range = private_range(range_half, Budget{privacy.epsilon, privacy.delta}, range_zeta, s.range,
                           ws.range_step, ledger, ws.range, rng);
  ledger.set_part(-1);
  tr.Lhat = tr.range.Lhat;
  if (!tr.Lhat || *tr.Lhat == 0) {
    // spec: dugler2026 ambiguity 2 -- BOTTOM (and the zero bin, whose width sqrt(0) admits no center grid)
    // skip the step, Q_t = Q_{t-1}: a function of DP outputs only (post-processing).
    tr.skipped = true;
    tr.stop = s.stop_on_bottom;
    return tr;
  }
  // Alg. 2 line 4 / Alg. 3 line 5.
  tr.R = s.radius_constant * s.K * std::sqrt(*tr.Lhat) * std::pow(std::log(log_argument), s.a);
  // Mean half I_t (Alg. 2 line 5 / Alg. 3 line 6): TRUNCATEDMEAN at (eps/2, delta/2). Its dk center
  // histograms and the Gaussian below read the same mean half: they compose (Lemma 2 step 4).
  MatrixChunks mean_half(S, first + half, half, Q, tangent, ws.G, ws.kk, /*cache=*/true);  // read twice
  ledger.set_part(first + half);
  tr.tm = truncated_mean(mean_half, tr.R, *tr.Lhat, Budget{privacy.epsilon / 2, privacy.delta / 2},
                         ws.center_step, ledger, ws.mean, ws.tm, rng);
  ledger.set_part(-1);
  if (s.skip_on_empty_center && tr.tm.empty_histograms > 0) {
    tr.skipped = true;  // center_fallback = skip_step: also post-processing of the DP centers
    return tr;
  }
  tr.sigma = adaptive_noise_sigma(s, tr.R, d, k, B, privacy);  // Alg. 2 line 6 / Alg. 3 line 7
  // The Gaussian the caller adds: the true sensitivity of the clamped mean of the m = B/2 matrices
  // (P_{S_Q} and Pi are non-expansive), whatever noise_constant gave sigma_t.
  ws.mean_noise.sensitivity = truncated_mean_sensitivity(tr.R, d, k, half);
  ws.mean_noise.noise_scale = tr.sigma;
  ws.mean_noise.neighbours = privacy.neighbours;
  ws.mean_noise.calibrated_for = {privacy.epsilon / 2, privacy.delta / 2};
  ws.mean_noise.part = first + half;
  return tr;
}

BatchPlan adaptive_plan(const BatchSettings& batch, const AdaptiveSettings& s, Eigen::Index n, Eigen::Index d,
                        Eigen::Index k, const Privacy& privacy, double zeta_divisor, const std::string& owner) {
  return plan_batches(batch, n, /*even=*/true, theory_log_argument(n, d, k, s.zeta, privacy),
                      adaptive_requirement(d, k, privacy, s, zeta_divisor), owner);
}

BatchRequirement adaptive_requirement(Eigen::Index d, Eigen::Index k, const Privacy& privacy,
                                      const AdaptiveSettings& s, double zeta_divisor) {
  const Budget center{privacy.epsilon / 2, privacy.delta / 2};
  const Eigen::Index m_req = truncated_mean_min_samples(d, k, center, s.feasibility_margin);
  const Budget range_budget{privacy.epsilon, privacy.delta};
  const auto block_min = [=](Eigen::Index T) -> Eigen::Index {
    const double zeta_r = s.zeta / (zeta_divisor * static_cast<double>(T));
    switch (s.block_min) {
      case AdaptiveSettings::BlockMin::d:
        return d;
      case AdaptiveSettings::BlockMin::one:
        return 1;
      case AdaptiveSettings::BlockMin::theory: {  // Theorem 5: b >= K^2 d log(k m / zeta')
        const double m = static_cast<double>(private_range_blocks(s.range, range_budget, zeta_r));
        return static_cast<Eigen::Index>(
            std::ceil(s.K * s.K * static_cast<double>(d) * std::log(static_cast<double>(k) * m / zeta_r)));
      }
    }
    return d;
  };
  const auto range_inputs = [=](Eigen::Index T) {
    return private_range_min_inputs(s.range, range_budget, s.zeta / (zeta_divisor * static_cast<double>(T)),
                                    block_min(T));
  };
  BatchRequirement req;
  // Each half holds B/2 matrices: B >= 2 max(m_req, range inputs).
  req.min_batch = [=](Eigen::Index T) { return 2 * std::max(m_req, range_inputs(T)); };
  req.why = [=](Eigen::Index T) {
    return fmt::format(
        "TRUNCATEDMEAN's {} coordinate histograms at (eps/(2dk), delta/(2dk)) = ({:.3g}, {:.3g}) need a mean "
        "half "
        "of m >= {} samples and PRIVRANGE needs a range half of >= {} (2 m b with b >= {})",
        d * k, center.epsilon / static_cast<double>(d * k), center.delta / static_cast<double>(d * k), m_req,
        range_inputs(T), block_min(T));
  };
  return req;
}

Eigen::MatrixXd run_adaptive_steps(Eigen::MatrixXd Q, const BatchPlan& plan, const LearningRate& eta,
                                   const std::string& prefix, Estimate& e, const DirectionFn& direction) {
  Diagnostics& diag = e.diagnostics;
  Eigen::MatrixXd D(Q.rows(), Q.cols()), Y(Q.rows(), Q.cols());
  // How far the steps taken can move Q, and how much noise they carry: the two reasons a run can stay near its
  // start (docs/papers/dugler2026.md, "What the numbers say").
  double step_size_sum = 0, noise_sd_sum = 0;
  Eigen::Index taken = 0;
  for (Eigen::Index t = 1; t <= plan.T; ++t) {
    const AdaptiveStepTrace tr = direction((t - 1) * plan.B, Q, D);
    record_adaptive_step(diag, t, tr, prefix);
    if (tr.stop) break;
    if (tr.skipped) continue;
    Y = Q + eta(t) * D;  // Alg. 2 line 8 / Alg. 3 line 9
    orthonormalize_in_place(Y);
    Q.swap(Y);
    step_size_sum += eta(t);
    noise_sd_sum += tr.sigma;
    ++taken;
  }
  // The fallback counters exist (at 0) in every run, so "no step skipped" reads as 0, not as a missing
  // metric.
  for (const char* fallback : {"skipped_steps", "bottom_ranges", "zero_ranges"})
    diag.count(prefix + fallback, 0);
  auto& c = diag.counters;
  c[prefix + "batch_size"] = static_cast<double>(plan.B);
  c[prefix + "batch_size_requested"] = static_cast<double>(plan.requested);
  c[prefix + "batch_increased"] = plan.increased ? 1 : 0;
  c[prefix + "planned_steps"] = static_cast<double>(plan.T);
  c[prefix + "step_size_sum"] = step_size_sum;  // sum of eta_t over the steps taken
  c[prefix + "noise_sd_mean"] = taken > 0 ? noise_sd_sum / static_cast<double>(taken) : 0.0;  // mean sigma_t
  // Skips follow from released outputs only (PRIVRANGE's histogram, TRUNCATEDMEAN's center histograms).
  if (taken < plan.T) {
    // "warm." names the two-stage method's first stage: "the warm stage: 3 of its 13 steps ...".
    const std::string stage = prefix.empty() ? "" : "the " + prefix.substr(0, prefix.size() - 1) + " stage: ";
    e.release_notes.push_back(fmt::format(
        "{}{} of its {} steps were skipped (a private histogram released nothing for them){}", stage, plan.T - taken,
        plan.T, taken == 0 ? ", so the output is its random starting subspace (more records or a larger epsilon "
                             "would help)"
                           : ""));
  }
  diag.notes.push_back(prefix +
                       "each record is used once (range half or mean half of one batch): parallel "
                       "composition, total (eps, delta)");
  return Q;
}

void record_adaptive_step(Diagnostics& diag, Eigen::Index t, const AdaptiveStepTrace& tr,
                          const std::string& p) {
  diag.count(p + "steps");
  if (!tr.Lhat || *tr.Lhat == 0) {
    diag.count(p + (tr.Lhat ? "zero_ranges" : "bottom_ranges"));
    diag.count(p + "skipped_steps");
    diag.notes.push_back(fmt::format("{}step {}: PRIVRANGE returned {}: fallback {} (post-processing)", p, t,
                                     tr.Lhat ? "the zero bin" : "BOTTOM",
                                     tr.stop ? "stop, return Q_{t-1}" : "skip the step, Q_t = Q_{t-1}"));
    return;
  }
  diag.counters[fmt::format("{}Lhat_{}", p, t)] = *tr.Lhat;
  diag.counters[fmt::format("{}R_{}", p, t)] = tr.R;
  diag.count(p + "truncated_entries", static_cast<double>(tr.tm.truncated_entries));
  diag.count(p + "empty_center_histograms", static_cast<double>(tr.tm.empty_histograms));
  if (tr.tm.empty_histograms > 0)
    diag.notes.push_back(fmt::format("{}step {}: {} empty coordinate histogram(s): {}", p, t,
                                     tr.tm.empty_histograms, tr.skipped ? "step skipped" : "center 0 used"));
  if (tr.skipped) {
    diag.count(p + "skipped_steps");
    return;
  }
  diag.counters[fmt::format("{}sigma_{}", p, t)] = tr.sigma;
}

FieldTable<AdaptiveSettings> adaptive_fields(const std::string& radius_ref) {
  using S = AdaptiveSettings;
  using B = S::BlockMin;
  FieldTable<S> t;
  t.real("K", &S::K, 1e-9, std::nullopt, "sub-Weibull tail constant K (Assumption A.4/B.4)", "dugler2026 §7, §8 item 2")
      .real("a", &S::a, 0.5, std::nullopt, "sub-Weibull exponent a >= 1/2", "dugler2026 §7, §8 item 2");
  zeta_field(t, &S::zeta)
      .nest(&S::range, range_fields())
      .real("radius_constant", &S::radius_constant, 1e-9, std::nullopt,
            "truncation radius constant (ADADPO's 3, TADADPO's C_R)", radius_ref)
      .real("noise_constant", &S::noise_constant, 8.0, std::nullopt,
            "Gaussian scale constant 8 of sigma_t (smaller values break the privacy proof)",
            "dugler2026 Alg. 2 line 6, Alg. 3 line 7, Lemma 2");
  calibration_field(t, &S::calibration,
                    "Gaussian calibration: classical sqrt(2 log(1.25/delta'))/eps' at (eps/2, delta/2) (needs eps < 2) "
                    "or analytic",
                    "dugler2026 ambiguity 14, §8 item 3")
      .choice("range_fallback", &S::stop_on_bottom, {{"skip_step", false}, {"stop", true}},
              "on PRIVRANGE = BOTTOM (or the zero bin): skip the step or stop and return Q_{t-1}",
              "dugler2026 ambiguity 2")
      .choice("center_fallback", &S::skip_on_empty_center, {{"zero", false}, {"skip_step", true}},
              "on an empty coordinate histogram: center 0, or skip the step", "dugler2026 ambiguity 2")
      .real("feasibility_margin", &S::feasibility_margin, 1.0, std::nullopt,
            "mean half m >= margin x the histogram threshold count 1 + (4dk/eps) log(4dk/delta)",
            "dugler2026 ambiguity 2")
      .choice("range_block_min", &S::block_min, {{"d", B::d}, {"theory", B::theory}, {"one", B::one}},
              "PRIVRANGE block size b must reach d (ambiguity 2), K^2 d log(k m/zeta') (Theorem 5; far fewer "
              "BOTTOMs, larger batches) or 1 (ambiguity 10)",
              "dugler2026 ambiguities 2, 10, Theorem 5");
  return t;
}

}  // namespace dpb::alg::dugler2026
