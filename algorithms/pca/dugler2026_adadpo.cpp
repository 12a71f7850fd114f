#include "algorithms/pca/dugler2026_adadpo.hpp"

#include <cmath>

namespace dpb::alg::dugler2026 {
namespace {
const std::string owner = "dugler2026.adadpo";
}

AdaptiveStepTrace adadpo_direction(const core::SampleMatrices& S, Eigen::Index first, Eigen::Index B,
                                   Eigen::Index T, const Eigen::MatrixXd& Q, const Privacy& privacy,
                                   const AdadpoParams& p, AdaptiveWorkspace& ws, Ledger& ledger,
                                   core::Rng& rng, Eigen::Ref<Eigen::MatrixXd> out) {
  const double zeta = p.adaptive.zeta, Bdk = static_cast<double>(B * Q.rows() * Q.cols());
  // Line 4's log argument: spec: dugler2026 ambiguity 8.
  const double log_argument = p.proof_log_argument ? Bdk * static_cast<double>(T) / zeta : Bdk / (2.0 * zeta);
  // Lines 3-6: PRIVRANGE at (eps, delta, zeta/(2T)), R_t, TRUNCATEDMEAN at (eps/2, delta/2), sigma_t.
  AdaptiveStepTrace tr = adaptive_mean(S, first, B, Q, /*tangent=*/false,
                                       zeta / (adadpo_range_zeta_divisor * static_cast<double>(T)),
                                       log_argument, privacy, p.adaptive, ws, ledger, rng);
  if (tr.skipped) return tr;
  out = ws.mean;
  project_onto_SQ(Q, out, ws.kk);  // line 8: P_{S_{Q_{t-1}}}(Gbar_t)
  // Line 7: Z_t, N_t; line 8: + Q N_t + Pi Z_t, the Gaussian mechanism on S_Q (Lemma 2 step 3).
  add_symmetric_noise(Q, ws.mean_noise, ledger, rng, ws.noise, out);
  return tr;
}

BatchPlan adadpo_plan(const AdadpoParams& p, Eigen::Index n, Eigen::Index d, Eigen::Index k,
                      const Privacy& privacy, const std::string& own) {
  return adaptive_plan(p.batch, p.adaptive, n, d, k, privacy, adadpo_range_zeta_divisor, own);
}

Estimate adadpo(const Input& in, const AdadpoParams& p, core::Rng& rng, const std::string& prefix) {
  check_input(in, owner, /*is_private=*/true, 2);
  const core::SampleMatrices& S = *in.samples;
  const Index d = S.d(), k = in.k, n = S.n();
  const BatchPlan plan = adadpo_plan(p, n, d, k, in.privacy, owner);
  adaptive_noise_sigma(p.adaptive, 1.0, d, k, plan.B, in.privacy);  // calibration valid for (eps/2, delta/2)?
  const LearningRate eta = make_learning_rate(p.lr, in, n, plan.T, owner);
  const Eigen::MatrixXd* start = given_start(in, d, k, owner);  // the auditor's public start (Input::start)
  Eigen::MatrixXd Q0 = start ? Eigen::MatrixXd(start->leftCols(k)) : random_start(d, k, rng);  // line 1
  AdaptiveWorkspace ws;
  ws.resize(d, k);
  ws.name_steps(prefix + "ADADPO ", "Gaussian mean in S_Q");
  Estimate e;
  // Lines 2-9, then line 10: return Q_T.
  e.Q = run_adaptive_steps(std::move(Q0), plan, eta, prefix, e,
                           [&](Index first, const Eigen::MatrixXd& Q, Eigen::Ref<Eigen::MatrixXd> D) {
                             return adadpo_direction(S, first, plan.B, plan.T, Q, in.privacy, p, ws, e.ledger,
                                                     rng, D);
                           });
  e.claim = adadpo_claim(p, in);
  return e;
}

PrivacyClaim adadpo_claim(const AdadpoParams& p, const Input& in) {
  return replace_claim(
      in.privacy, p.adaptive.calibration, true,
      {"Lemma 2: per step PRIVRANGE (eps, delta) on the range half; centers (eps/2, delta/2) and "
       "Gaussian (eps/2, delta/2) on the mean half; the projection P_{S_Q} is applied",
       "holds for every input (distribution-free); fallbacks are post-processing"});
}

}  // namespace dpb::alg::dugler2026
