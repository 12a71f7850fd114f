#include "algorithms/pca/dugler2026_private_oja.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/mechanisms/clipping.hpp"
#include "core/eigen_order.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/sample_matrices.hpp"

namespace dpb::alg::dugler2026 {
namespace {
const std::string owner = "dugler2026.private_oja";
}

double private_oja_radius(const PrivateOjaParams& p, const Input& in) {
  if (p.clip_radius > 0) return p.clip_radius;
  const std::string what = "clip_radius (R of Algorithm 1)";
  const double lambda1 = require_oracle(in, owner, what).eigenvalues[0];
  const double gamma = oracle_gamma(in, owner, what);
  const double ndk = static_cast<double>(in.samples->n() * in.samples->d() * in.k);
  // Theorem 1: R = C lambda_1 sqrt(dk) (K gamma log^a(ndk/zeta) + 1).
  return p.C * lambda1 * std::sqrt(static_cast<double>(in.samples->d() * in.k)) *
         (p.K * gamma * std::pow(std::log(ndk / p.zeta), p.a) + 1.0);
}

double private_oja_sigma(const PrivateOjaParams& p, double R, Eigen::Index B, const Privacy& privacy) {
  return gaussian_sigma(p.calibration, 2.0 * R / static_cast<double>(B), privacy.epsilon, privacy.delta);
}

void PrivateOjaWorkspace::resize(Eigen::Index d, Eigen::Index k) {
  AQ.resize(d, 0);  // sized on first use: one chunk of products
  kk.resize(k, k);
  noise.resize(d, k);
}

LedgerEntry private_oja_entry(double R, Eigen::Index B, double sigma, const Privacy& privacy) {
  // One replaced A_i moves one clipped term by at most 2R in Frobenius norm (P_{S_Q} is non-expansive).
  LedgerEntry e = gaussian_entry("Private Oja Gaussian mean (batch)", 2.0 * R / static_cast<double>(B), sigma,
                                 privacy);
  e.disjoint = true;  // Theorem 4: one pass over disjoint batches
  return e;
}

Eigen::Index private_oja_direction(const core::SampleMatrices& S, Eigen::Index first, Eigen::Index B,
                                   const Eigen::MatrixXd& Q, double R, const LedgerEntry& noise, bool project,
                                   Ledger& ledger, core::Rng& rng, PrivateOjaWorkspace& ws,
                                   Eigen::Ref<Eigen::MatrixXd> out) {
  // out is zeroed and then summed into column by column: a wrong shape would write past it, an overlap with
  // Q would lose the frame the noise is drawn along. apply's contract is this one, at the batch's first
  // sample.
  core::check_apply_shapes(S, first, Q, out);
  Eigen::Index clipped = 0;
  out.setZero();
  // (1/B) sum clip_R(A_i Q_{t-1}), in sample order; the products a chunk at a time.
  const Eigen::Index d = Q.rows(), k = Q.cols(), chunk = chunk_length(d, k, B);
  if (ws.AQ.rows() != d || ws.AQ.cols() < chunk * k) ws.AQ.resize(d, chunk * k);
  if (ws.squared_norms.size() < chunk) ws.squared_norms.resize(chunk);
  for (Eigen::Index l0 = 0; l0 < B; l0 += chunk) {
    const Eigen::Index count = std::min(chunk, B - l0);
    S.apply_range(first + l0, count, Q, ws.AQ.leftCols(count * k));
    // The norms side by side: one is a chain of d k / 2 additions.
    core::frobenius_squared_norms_as_eigen(ws.AQ.data(), count, d, k, ws.squared_norms.data());
    for (Eigen::Index l = 0; l < count; ++l) {
      auto AQ = ws.AQ.middleCols(l * k, k);
      clipped += frobenius_clip(AQ, R, std::sqrt(ws.squared_norms[l]));
      // out += AQ, column by column through the vector kernel (1 x is x exactly: Eigen's bits).
      for (Eigen::Index j = 0; j < k; ++j) core::add_scaled(out.col(j).data(), 1.0, AQ.col(j).data(), d);
    }
  }
  out /= static_cast<double>(B);
  if (project) project_onto_SQ(Q, out, ws.kk);  // spec: dugler2026 ambiguity 12 (no-op for symmetric A_i)
  // Line 5: Z_t, N_t; line 6: Q N_t + Pi Z_t, the Gaussian mechanism on S_Q (Lemma 9), where the mean lies
  // (projected, or for symmetric A_i as printed).
  add_symmetric_noise(Q, noise, ledger, rng, ws.noise, out);
  return clipped;
}

Estimate private_oja(const Input& in, const PrivateOjaParams& p, core::Rng& rng) {
  check_input(in, owner, /*is_private=*/true);
  const core::SampleMatrices& S = *in.samples;
  const Index d = S.d(), k = in.k, n = S.n();
  const double R = private_oja_radius(p, in);
  // Line 1: T = floor(n/B), sigma.
  const BatchPlan plan =
      plan_batches(p.batch, n, /*even=*/false, theory_log_argument(n, d, k, p.zeta, in.privacy), BatchRequirement{},
                   owner);
  const double sigma = private_oja_sigma(p, R, plan.B, in.privacy);
  const LedgerEntry noise = private_oja_entry(R, plan.B, sigma, in.privacy);  // once: the steps merge into it
  const LearningRate eta = make_learning_rate(p.lr, in, n, plan.T, owner);
  const Eigen::MatrixXd* start = given_start(in, d, k, owner);
  Eigen::MatrixXd Q = start ? Eigen::MatrixXd(start->leftCols(k)) : random_start(d, k, rng);  // line 2
  PrivateOjaWorkspace ws;
  ws.resize(d, k);
  Eigen::MatrixXd D(d, k), Y(d, k);
  Estimate e;
  Diagnostics& diag = e.diagnostics;
  double step_size_sum = 0;  // how far the steps can move Q: sum of eta_t (the verdicts' reason at chance)
  for (Index t = 1; t <= plan.T; ++t) {  // line 3
    const Index first = (t - 1) * plan.B;
    const Index clipped =
        private_oja_direction(S, first, plan.B, Q, R, noise, p.project_onto_SQ, e.ledger, rng, ws, D);  // lines 4-5
    if (in.record_transcript)  // the auditor's white-box view: the batch's Gaussian mean, and which records it read
      e.transcript.push_back({"batch", Q, D, noise.noise_scale, 1.0 / static_cast<double>(plan.B), R, first,
                              first + plan.B, /*span_variance=*/2});  // GOE_k along Q (Lemma 9 and line 6)
    const double step = eta(t);
    Y = Q + step * D;  // line 6
    step_size_sum += step;
    orthonormalize_in_place(Y);
    Q.swap(Y);
    diag.count("clipped", static_cast<double>(clipped));
  }
  diag.counters["clip_radius"] = R;
  diag.counters["sigma"] = sigma;
  diag.counters["batch_size"] = static_cast<double>(plan.B);
  diag.counters["steps"] = static_cast<double>(plan.T);
  diag.counters["step_size_sum"] = step_size_sum;
  diag.counters["unused_samples"] = static_cast<double>(n - plan.T * plan.B);
  diag.notes.push_back("disjoint batches, one pass: parallel composition, total (eps, delta) per record");
  e.Q = std::move(Q);  // line 8
  e.claim = private_oja_claim(p, in);
  return e;
}

PrivacyClaim private_oja_claim(const PrivateOjaParams& p, const Input& in) {
  return replace_claim(in.privacy, p.calibration, false,
                       {p.project_onto_SQ ? "clipped mean projected onto S_Q (holds for any input)"
                                          : "faithful mode: needs every A_i exactly symmetric (Lemma 8)",
                        "Theorem 4: one pass over disjoint batches (parallel composition)"});
}

}  // namespace dpb::alg::dugler2026
