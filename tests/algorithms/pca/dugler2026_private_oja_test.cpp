#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/pca/dugler2026_private_oja.hpp"
#include "algorithms/pca/dugler2026_support.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"
#include "support/same_bits.hpp"

using namespace dpb;
using namespace dpb::alg::dugler2026;
namespace dt = dpb::test::dugler;

TEST_CASE("dugler2026.private_oja rejects invalid input and a missing oracle", "[dugler2026]") {
  const auto data = dt::shifted(6, 2, 0.5, 500, 1);
  core::Rng rng(1, 1);
  auto in = data.input(2, 0.5, 0.01);
  in.privacy.delta = 0;
  CHECK_THROWS_AS(private_oja(in, dt::constant_rate<PrivateOjaParams>(10), rng), InvalidArgument);
  in = data.input(2, 1.0, 0.01);  // classical calibration needs eps < 1
  CHECK_THROWS_WITH(private_oja(in, dt::constant_rate<PrivateOjaParams>(10), rng),
                    Catch::Contains("analytic"));
  in = data.input(2, 0.5, 0.01);
  in.privacy.neighbours = alg::Neighbours::add_remove;
  CHECK_THROWS_WITH(private_oja(in, dt::constant_rate<PrivateOjaParams>(10), rng),
                    Catch::Contains("replace"));
  in = data.input(2, 0.5, 0.01);
  in.oracle = nullptr;  // R of Theorem 1 needs lambda_1, gamma
  CHECK_THROWS_WITH(private_oja(in, dt::constant_rate<PrivateOjaParams>(10), rng),
                    Catch::Contains("clip_radius"));
  auto p = dt::constant_rate<PrivateOjaParams>(10);
  p.clip_radius = 5;
  CHECK_NOTHROW(private_oja(in, p, rng));
}

TEST_CASE(
    "dugler2026.private_oja noise: Q N + Pi Z with N ~ GOE_k(sigma^2), sigma = 2R sqrt(2 log(1.25/delta))/(B "
    "eps)",
    "[dugler2026]") {
  const long d = 5, k = 2, B = 50;
  const auto data = dt::shifted(d, k, 0.5, B, 2);
  PrivateOjaParams p;
  p.clip_radius = 1e6;  // never clips: the signal is the plain mean
  const alg::Privacy priv{0.5, 1e-3, alg::Neighbours::replace};
  const double sigma = private_oja_sigma(p, p.clip_radius, B, priv);
  CHECK(sigma ==
        Approx(2 * 1e6 * std::sqrt(2 * std::log(1.25 / 1e-3)) / (B * 0.5)).epsilon(1e-12));  // Alg. 1 line 1
  core::Rng qr(4, 4);
  const Eigen::MatrixXd Q = core::haar_frame(qr, d, k), Qp = dt::complement(Q);
  Eigen::MatrixXd signal = Eigen::MatrixXd::Zero(d, k), AQ(d, k);
  for (long i = 0; i < B; ++i) data.samples->apply(i, Q, AQ), signal += AQ / B;
  PrivateOjaWorkspace ws;
  ws.resize(d, k);
  Eigen::MatrixXd out(d, k);
  dt::BlockVariance v;
  const int draws = 4000;
  const alg::LedgerEntry noise = private_oja_entry(p.clip_radius, B, sigma, priv);
  alg::Ledger ledger;
  for (int r = 0; r < draws; ++r) {
    core::Rng rng(100, r);
    CHECK(private_oja_direction(*data.samples, 0, B, Q, p.clip_radius, noise, true, ledger, rng, ws, out) ==
          0);
    v.add(Q, Qp, out - signal, sigma);
  }
  // Every step's Gaussian: sensitivity 2R/B, the sd of line 1, (eps, delta), merged into one entry.
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries()[0].uses == draws);
  CHECK(ledger.entries()[0].sensitivity == 2 * p.clip_radius / B);
  CHECK(ledger.entries()[0].noise_scale == sigma);
  // Standardised variances: perp entries N(0, 1) (12000 draws, sd of the estimate 0.013), GOE diagonal
  // N(0, 2) (8000 draws, sd 0.032), off-diagonal N(0, 1) (8000 entries, sd 0.016): 6 sd bands.
  CHECK(v.var_perp() == Approx(1.0).margin(0.08));
  CHECK(v.var_diag() == Approx(2.0).margin(0.19));
  CHECK(v.var_off() == Approx(1.0).margin(0.1));
  CHECK(v.max_asym < 1e-8 * sigma);  // Q^T (noise) is symmetric: the noise lies in S_Q
}

TEST_CASE("dugler2026.private_oja direction: the bits of clipping, summing and noising one product at a time",
          "[dugler2026]") {
  // A batch's norms are taken four products at a time and its sum by the vector kernel; against the plain
  // form: each A_i Q clipped by frobenius_clip, added with Eigen, divided by B, projected or not, then the
  // same noise (same stream). d = 101, k = 3: chunks of 108 products, so B = 250 is two whole chunks and 34
  // (not a multiple of four); R is the median norm, so about half the products are clipped.
  const long d = 101, k = 3, B = 250;
  const auto data = dt::shifted(d, k, 0.5, B, 3);
  core::Rng qr(5, 5);
  const Eigen::MatrixXd Q = core::haar_frame(qr, d, k);
  Eigen::MatrixXd AQ(d, k);
  std::vector<double> norms;
  for (long i = 0; i < B; ++i) {
    data.samples->apply(i, Q, AQ);
    norms.push_back(AQ.norm());
  }
  std::nth_element(norms.begin(), norms.begin() + B / 2, norms.end());
  const double R = norms[B / 2];
  const alg::Privacy priv{0.5, 1e-3, alg::Neighbours::replace};
  const alg::LedgerEntry noise =
      private_oja_entry(R, B, private_oja_sigma(PrivateOjaParams{}, R, B, priv), priv);
  for (const bool project : {false, true}) {
    CAPTURE(project);
    Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(d, k), kk;
    long clipped = 0;
    for (long i = 0; i < B; ++i) {
      data.samples->apply(i, Q, AQ);
      clipped += alg::frobenius_clip(AQ, R);
      expected += AQ;
    }
    expected /= static_cast<double>(B);
    if (project) project_onto_SQ(Q, expected, kk);
    alg::Ledger expected_ledger, ledger;
    core::Rng expected_rng(9, 9), rng(9, 9);
    NoiseWorkspace noise_ws;
    noise_ws.resize(d, k);
    add_symmetric_noise(Q, noise, expected_ledger, expected_rng, noise_ws, expected);
    PrivateOjaWorkspace ws;
    ws.resize(d, k);
    Eigen::MatrixXd out(d, k);
    CHECK(private_oja_direction(*data.samples, 0, B, Q, R, noise, project, ledger, rng, ws, out) == clipped);
    CHECK(clipped > B / 3);
    CHECK(dpb::test::same_bits(out, expected));
  }
  // A workspace never sized, or sized for another (d, k), is sized on first use: the same bits as one sized.
  {
    alg::Ledger sized_ledger, fresh_ledger, other_ledger;
    core::Rng sized_rng(5, 5), fresh_rng(5, 5), other_rng(5, 5);
    PrivateOjaWorkspace sized, fresh, other;
    sized.resize(d, k);
    other.resize(d + 3, k + 1);
    Eigen::MatrixXd sized_out(d, k), fresh_out(d, k), other_out(d, k);
    private_oja_direction(*data.samples, 0, B, Q, R, noise, true, sized_ledger, sized_rng, sized, sized_out);
    private_oja_direction(*data.samples, 0, B, Q, R, noise, true, fresh_ledger, fresh_rng, fresh, fresh_out);
    private_oja_direction(*data.samples, 0, B, Q, R, noise, true, other_ledger, other_rng, other, other_out);
    CHECK(dpb::test::same_bits(fresh_out, sized_out));
    CHECK(dpb::test::same_bits(other_out, sized_out));
  }
  // An out of another shape, or one overlapping Q, is refused before anything is written or drawn.
  alg::Ledger ledger;
  core::Rng rng(9, 9);
  PrivateOjaWorkspace ws;
  Eigen::MatrixXd short_out(d - 1, k), narrow_out(d, k - 1), Q_copy = Q;
  for (Eigen::MatrixXd* bad : {&short_out, &narrow_out}) {
    const Eigen::MatrixXd before = *bad;
    CHECK_THROWS_WITH(private_oja_direction(*data.samples, 0, B, Q, R, noise, true, ledger, rng, ws, *bad),
                      Catch::Contains("Q and out must be " + std::to_string(d) + " x k with equal k"));
    CHECK(dpb::test::same_bits(*bad, before));
  }
  // out as Q itself (Q is a whole matrix, so no other overlap of the right shape exists).
  CHECK_THROWS_WITH(
      private_oja_direction(*data.samples, 0, B, Q_copy, R, noise, true, ledger, rng, ws, Q_copy),
      Catch::Contains("out must not overlap Q"));
  CHECK(dpb::test::same_bits(Q_copy, Q));
  CHECK(ledger.entries().empty());
}

TEST_CASE("dugler2026.private_oja converges, improves with n, clips rarely at Thm 1's R, is deterministic",
          "[dugler2026]") {
  // d = 8, k = 2, sigma = 0.5: lambda_1 = 1.75, gamma = sqrt(2) sigma^2/lambda_1 = 0.2, R = lambda_1 sqrt(dk)
  // (gamma log(ndk/zeta) + 1) ~ 34. At n = 2e5, B = n/log n ~ 16400, eps = 0.9: sigma ~ 0.015, so the
  // noise ||G Q||_F ~ sigma sqrt(dk) ~ 0.06 and the statistical part sigma^2 sqrt(dk/B) ~ 0.01 per step;
  // the fixed point error is ~ their sum over the gap (1): bound 0.25 (x4 room). At n = 2e4 both
  // terms grow ~10x (B and sigma scale with n/log n), so its error must be larger.
  double err_small = 0, err_large = 0;
  int runs_with_clipping = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto small = dt::shifted(8, 2, 0.5, 20000, seed), large = dt::shifted(8, 2, 0.5, 200000, seed);
    core::Rng r1(seed, 7), r2(seed, 7);
    const auto es = private_oja(small.input(2, 0.9, 0.01), dt::constant_rate<PrivateOjaParams>(10), r1);
    const auto el = private_oja(large.input(2, 0.9, 0.01), dt::constant_rate<PrivateOjaParams>(10), r2);
    err_small += dt::error(*es.Q, small.model->info()) / 4;
    err_large += dt::error(*el.Q, large.model->info()) / 4;
    runs_with_clipping +=
        (es.diagnostics.counters.at("clipped") > 0) + (el.diagnostics.counters.at("clipped") > 0);
    CHECK(el.claim.epsilon == 0.9);
    // One Gaussian per step on its own batch: one entry of T disjoint uses, charged (eps, delta) once
    // (Theorem 4), which the accountant confirms against the claim.
    REQUIRE(el.ledger.entries().size() == 1);
    const auto& g = el.ledger.entries()[0];
    CHECK(g.uses == static_cast<std::int64_t>(el.diagnostics.counters.at("steps")));
    CHECK(g.disjoint);
    CHECK(g.sensitivity == Approx(2 * el.diagnostics.counters.at("clip_radius") /
                                  el.diagnostics.counters.at("batch_size")));
    CHECK(g.noise_scale == el.diagnostics.counters.at("sigma"));
    CHECK(g.calibrated_for.epsilon == 0.9);
    CHECK(g.calibrated_for.delta == 0.01);
    CHECK_NOTHROW(alg::check_claim(el.ledger, el.claim, "dugler2026.private_oja"));
  }
  CHECK(err_large < 0.25);
  CHECK(err_large < err_small);
  // Lemma 10: P(any clipping in a run) <= zeta = 0.01; over 8 runs P(>= 2 such runs) <= 28 zeta^2 < 0.003.
  CHECK(runs_with_clipping <= 1);
  const auto data = dt::shifted(8, 2, 0.5, 3000, 3);
  core::Rng a(9, 9), b(9, 9);
  CHECK(*private_oja(data.input(2, 0.5, 0.01), dt::constant_rate<PrivateOjaParams>(10), a).Q ==
        *private_oja(data.input(2, 0.5, 0.01), dt::constant_rate<PrivateOjaParams>(10), b).Q);
}

TEST_CASE("dugler2026.private_oja's white-box transcript: each batch's noisy clipped mean and the records it read",
          "[dugler2026][audit]") {
  // Asked for (the auditor's transcript_lr), step t appends D_t = (1/B) sum clip_R(A_i Q_{t-1}) + noise, read from
  // records (t-1)B .. tB - 1 (disjoint batches, no shuffle: Theorem 4's order is public), with the query Q_{t-1},
  // scale 1/B, clip R and the line-1 sigma; Q_t spans Q_{t-1} + eta D_t (constant eta = 10).
  const auto data = dt::shifted(6, 2, 0.5, 2000, 1);
  auto in = data.input(2, 0.5, 0.01);
  core::Rng plain_rng(1, 1);
  CHECK(private_oja(in, dt::constant_rate<PrivateOjaParams>(10), plain_rng).transcript.empty());
  in.record_transcript = true;
  core::Rng rng(1, 1);
  const auto e = private_oja(in, dt::constant_rate<PrivateOjaParams>(10), rng);
  const auto steps = static_cast<std::size_t>(e.diagnostics.counters.at("steps"));
  const auto B = static_cast<Eigen::Index>(e.diagnostics.counters.at("batch_size"));
  REQUIRE(e.transcript.size() == steps);
  REQUIRE(steps >= 2);
  for (std::size_t t = 0; t < steps; ++t) {
    const alg::GaussianRelease& r = e.transcript[t];
    CHECK(r.first_record == Eigen::Index(t) * B);
    CHECK(r.end_record == Eigen::Index(t + 1) * B);
    CHECK(r.scale == Approx(1.0 / double(B)));
    CHECK(r.clip == e.diagnostics.counters.at("clip_radius"));
    CHECK(r.noise_sd == e.diagnostics.counters.at("sigma"));
    CHECK(r.span_variance == 2);  // GOE_k along Q_{t-1}
    const Eigen::MatrixXd next = t + 1 < steps ? e.transcript[t + 1].query : *e.Q;
    const Eigen::MatrixXd moved = r.query + 10 * r.value;
    CHECK((moved - next * (next.transpose() * moved)).norm() < 1e-9 * moved.norm());
  }
}
