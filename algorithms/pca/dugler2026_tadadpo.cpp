#include "algorithms/pca/dugler2026_tadadpo.hpp"

#include <fmt/format.h>
#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"

namespace dpb::alg::dugler2026 {
namespace {
const std::string owner = "dugler2026.tadadpo";
}

AdaptiveStepTrace tadadpo_direction(const core::SampleMatrices& S, Eigen::Index first, Eigen::Index B,
                                    Eigen::Index T, const Eigen::MatrixXd& Q, const Privacy& privacy,
                                    const TadadpoParams& p, AdaptiveWorkspace& ws, Ledger& ledger,
                                    core::Rng& rng, Eigen::Ref<Eigen::MatrixXd> out) {
  const double zeta = p.adaptive.zeta, Td = static_cast<double>(T);
  // Lines 2-7: Y_i = Pi A_i Q; PRIVRANGE at (eps, delta, zeta/(8T)); r_t = C_R K sqrt(Lhat) log^a(BdkT/zeta);
  // TRUNCATEDMEAN at (eps/2, delta/2); sigma_t.
  const double log_argument = static_cast<double>(B * Q.rows() * Q.cols()) * Td / zeta;
  AdaptiveStepTrace tr =
      adaptive_mean(S, first, B, Q, /*tangent=*/true, zeta / (tadadpo_range_zeta_divisor * Td), log_argument,
                    privacy, p.adaptive, ws, ledger, rng);
  if (tr.skipped) return tr;
  out = ws.mean;
  gaussian_mechanism(out, ws.mean_noise, ledger, rng);  // line 8: Z_t (no GOE block), Lemma 14
  project_onto_tangent(Q, out, ws.kk);                  // line 9: Pi (Ybar_t + Z_t), post-processing
  return tr;
}

BatchPlan tadadpo_plan(const TadadpoParams& p, Eigen::Index n, Eigen::Index d, Eigen::Index k,
                       const Privacy& privacy, const std::string& own) {
  return adaptive_plan(p.batch, p.adaptive, n, d, k, privacy, tadadpo_range_zeta_divisor, own);
}

Estimate tadadpo(const Input& in, const TadadpoParams& p, core::Rng& rng, const Eigen::MatrixXd* Q0,
                 const std::string& prefix) {
  check_input(in, owner, /*is_private=*/true, 2);
  const core::SampleMatrices& S = *in.samples;
  const Index d = S.d(), k = in.k, n = S.n();
  const BatchPlan plan = tadadpo_plan(p, n, d, k, in.privacy, owner);
  adaptive_noise_sigma(p.adaptive, 1.0, d, k, plan.B, in.privacy);  // calibration valid for (eps/2, delta/2)?
  const LearningRate eta = make_learning_rate(p.lr, in, n, plan.T, owner);
  Eigen::MatrixXd Q;
  if (Q0) {
    if (Q0->rows() != d || Q0->cols() != k)
      throw InvalidArgument(fmt::format("{}: the starting point must be {} x {}", owner, d, k));
    Q = *Q0;
  } else if (const Eigen::MatrixXd* start = given_start(in, d, k, owner)) {  // the auditor's public start
    Q = start->leftCols(k);
  } else if (p.start == TadadpoStart::oracle) {
    const auto& o = require_oracle(in, owner, "start = oracle (or start = random)");
    if (o.target.rows() != d || o.target.cols() < k)
      throw InvalidArgument(owner + ": the oracle's target has fewer than k columns");
    Q = o.target.leftCols(k);
  } else {
    Q = random_start(d, k, rng);
  }
  AdaptiveWorkspace ws;
  ws.resize(d, k);
  ws.name_steps(prefix + "TADADPO ", "Gaussian tangent mean");
  Estimate e;
  // Lines 1-10, then line 11: return Q_T.
  e.Q = run_adaptive_steps(std::move(Q), plan, eta, prefix, e,
                           [&](Index first, const Eigen::MatrixXd& Qt, Eigen::Ref<Eigen::MatrixXd> D) {
                             return tadadpo_direction(S, first, plan.B, plan.T, Qt, in.privacy, p, ws,
                                                      e.ledger, rng, D);
                           });
  e.claim = tadadpo_claim(p, in);
  return e;
}

PrivacyClaim tadadpo_claim(const TadadpoParams& p, const Input& in) {
  return replace_claim(
      in.privacy, p.adaptive.calibration, true,
      {"Lemma 13: per step PRIVRANGE (eps, delta) on the range half; centers (eps/2, delta/2) and "
       "tangent Gaussian (eps/2, delta/2) on the mean half; disjoint batches",
       "the starting point must be private and computed on records disjoint from these (Lemma 13); "
       "otherwise costs compose sequentially"});
}

}  // namespace dpb::alg::dugler2026
