#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/pca/dugler2026_support.hpp"
#include "algorithms/pca/dugler2026_tadadpo.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

using namespace dpb;
using namespace dpb::alg::dugler2026;
namespace dt = dpb::test::dugler;

TEST_CASE("dugler2026.tadadpo rejects invalid input and a missing oracle start", "[dugler2026]") {
  const auto data = dt::shifted(6, 2, 0.25, 4000, 1);
  core::Rng rng(1, 1);
  CHECK_THROWS_AS(tadadpo(data.input(2, 1, 0), dt::constant_rate<TadadpoParams>(0.5), rng), InvalidArgument);
  auto p = dt::constant_rate<TadadpoParams>(0.5);
  p.start = TadadpoStart::oracle;
  auto in = data.input(2, 1, 0.01);
  in.oracle = nullptr;
  CHECK_THROWS_WITH(tadadpo(in, p, rng), Catch::Contains("start"));
  const Eigen::MatrixXd wrong = Eigen::MatrixXd::Identity(6, 1);
  CHECK_THROWS_AS(tadadpo(data.input(2, 1, 0.01), dt::constant_rate<TadadpoParams>(0.5), rng, &wrong),
                  InvalidArgument);
}

TEST_CASE("dugler2026.tadadpo noise: Pi (Ybar + Z), Z ~ N(0, sigma_t^2), nothing in the Q block",
          "[dugler2026]") {
  const long d = 4, k = 2, B = 2400, T = 3;
  // B = 2 * (2 m b): m = 50 PRIVRANGE blocks of b = 12 pairs (a multiple of d), so Lhat is deterministic.
  const core::VectorSamples S = dt::structured_samples(d, B, 1.0, 3);
  const alg::Privacy priv{1, 0.01, alg::Neighbours::replace};
  TadadpoParams p;
  core::Rng qr(4, 4);
  const Eigen::MatrixXd Q = core::haar_frame(qr, d, k), Qp = dt::complement(Q);
  Eigen::MatrixXd signal = Eigen::MatrixXd::Zero(d, k), AQ(d, k);
  for (long i = B / 2; i < B; ++i) S.apply(i, Q, AQ), signal += AQ / (B / 2);
  signal -= Q * (Q.transpose() * signal);  // Pi Ybar (no truncation: r_t >> the spread)
  AdaptiveWorkspace ws;
  ws.resize(d, k);
  Eigen::MatrixXd out(d, k);
  dt::BlockVariance v;
  for (int r = 0; r < 1500; ++r) {
    core::Rng rng(300, r);
    alg::Ledger ledger;
    const auto tr = tadadpo_direction(S, 0, B, T, Q, priv, p, ws, ledger, rng, out);
    REQUIRE(tr.Lhat);
    REQUIRE(tr.tm.truncated_entries == 0);
    const double R = 3 * std::sqrt(*tr.Lhat) * std::log(B * d * k * T / 0.01);  // line 5, C_R = 3
    CHECK(tr.R == Approx(R).epsilon(1e-12));
    CHECK(tr.sigma ==
          Approx(8 * R * std::sqrt(d * k) / (B * 1.0) * std::sqrt(2 * std::log(2.5 / 0.01))).epsilon(1e-12));
    v.add(Q, Qp, out - signal, tr.sigma);
    // The Gaussian of line 8 on the clamped tangent mean: sensitivity 2 r_t sqrt(dk)/(B/2), sd sigma_t.
    REQUIRE(ledger.entries().size() == 3);
    CHECK(ledger.entries()[2].step == "Gaussian mean (mean half)");  // a workspace not named by tadadpo()
    CHECK(ledger.entries()[2].noise_scale == tr.sigma);
    CHECK(ledger.entries()[2].sensitivity == Approx(2 * R * std::sqrt(d * k) / (B / 2)).epsilon(1e-12));
  }
  CHECK(v.var_perp() == Approx(1.0).margin(0.1));  // 8000 entries, sd 0.016
  CHECK(v.var_diag() < 1e-20);                     // Q^T out = 0: noise only in T_Q
  CHECK(v.var_off() < 1e-20);
}

TEST_CASE("dugler2026.tadadpo stays in the basin from the oracle start", "[dugler2026]") {
  // TADADPO's error at its fixed point ~ (||Pi E||_F)/gap with sigma_t ~ 8 r sqrt(dk)/(B eps) sqrt(2 log
  // 250), r = 3 sqrt(Lhat) log(BdkT/zeta), Lhat ~ 2 g_Q^2 = 2 sigma^4: at n = 2e5, d = 6, k = 2, sigma =
  // 0.25, B ~ 16400: sigma_t ~ 0.02 -> error ~ 0.07; bound 0.25.
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    const auto data = dt::shifted(6, 2, 0.25, 200000, seed);
    auto p = dt::constant_rate<TadadpoParams>(0.5);
    p.start = TadadpoStart::oracle;
    core::Rng rng(seed, 2);
    const auto e = tadadpo(data.input(2, 1, 0.01), p, rng);
    CHECK(dt::error(*e.Q, data.model->info()) < 0.25);
    CHECK(e.diagnostics.counters.at("skipped_steps") == 0);
    // Per step: PRIVRANGE on the range half; centers and the tangent Gaussian on the mean half. By
    // parallel composition over the half batches the run spends (eps, delta) (Lemma 13).
    const auto& entries = e.ledger.entries();
    REQUIRE(entries.size() == 3 * static_cast<std::size_t>(e.diagnostics.counters.at("steps")));
    CHECK(entries[0].step == "TADADPO PRIVRANGE histogram (range half)");
    CHECK(entries[1].step == "TADADPO TRUNCATEDMEAN center histograms (mean half)");
    CHECK(entries[2].step == "TADADPO Gaussian tangent mean (mean half)");
    CHECK(dt::within(dt::spent(e.ledger, 0.01), 1, 0.01));
  }
}

// As ADADPO: the auditor's public start (Input::start) replaces the random (or oracle) one, and a warm start
// handed over by the two-stage method comes before it. Step size 1e-12: Q_T is its start to 1e-6.
TEST_CASE("dugler2026.tadadpo starts at the auditor's public start", "[dugler2026]") {
  const auto data = dt::shifted(6, 2, 0.25, 5000, 1);
  Eigen::MatrixXd start = Eigen::MatrixXd::Zero(6, 2);
  start(4, 0) = start(1, 1) = 1;
  auto in = data.input(2, 1, 0.01);
  in.start = &start;
  core::Rng rng(5, 2);
  const auto e = tadadpo(in, dt::constant_rate<TadadpoParams>(1e-12), rng);
  CHECK((*e.Q - start).cwiseAbs().maxCoeff() < 1e-6);
  Eigen::MatrixXd warm = Eigen::MatrixXd::Zero(6, 2);
  warm(2, 0) = warm(3, 1) = 1;
  const auto handed = tadadpo(in, dt::constant_rate<TadadpoParams>(1e-12), rng, &warm);
  CHECK((*handed.Q - warm).cwiseAbs().maxCoeff() < 1e-6);
}
