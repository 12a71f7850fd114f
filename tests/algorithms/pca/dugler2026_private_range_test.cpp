#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/pca/dugler2026_private_range.hpp"
#include "algorithms/pca/dugler2026_support.hpp"
#include "core/errors.hpp"
#include "core/sample_matrices.hpp"

using namespace dpb;
using namespace dpb::alg::dugler2026;
namespace dt = dpb::test::dugler;

TEST_CASE("dugler2026.priv_range rejects invalid input and names the required size", "[dugler2026]") {
  const auto data = dt::shifted(4, 1, 0.5, 60, 1);
  core::Rng rng(1, 1);
  PrivRangeParams p;
  // m = ceil(4 log(1/(0.01 * 0.01)) / 1) = 37 blocks need 2 m = 74 matrices.
  CHECK(private_range_blocks(p.range, alg::Budget{1, 0.01}, 0.01) == 37);
  CHECK_THROWS_WITH(priv_range(data.input(1, 1, 0.01), p, rng), Catch::Contains("n >= 74"));
  auto in = data.input(1, 1, 0);
  CHECK_THROWS_AS(priv_range(in, p, rng), InvalidArgument);
  in = data.input(2, -1, 0.01);
  CHECK_THROWS_AS(priv_range(in, p, rng), InvalidArgument);
}

TEST_CASE("dugler2026.priv_range recovers Lambda(Q) = 2 sigma^4 on dugler_shifted within [1, 2^{3/2}]",
          "[dugler2026]") {
  // Spec §4 "numerical check": for A = V Lambda V^T + z z^T, E[(A - Sigma) u u^T (A - Sigma)] = sigma^4 (I +
  // u u^T), so Lambda(Q) = 2 sigma^4 for every Q (and the tangent target g_Q^2 = sigma^4). Block maxima of b
  // = 270 pairs sit within ~10% of Lambda (BBP bias (1 + d/b) and fluctuation sqrt(d/b)); the winning bin's
  // left end l is within a bin ratio 2^{1/4} of them, so Lhat = 2 l lies in [2^{1/4}, 2^{3/2}] Lambda
  // (spec ambiguity 6 / Lemma 15) with a wide margin; all 10 seeds must land there.
  const double sigma = 0.5, Lambda = 2 * std::pow(sigma, 4);
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto data = dt::shifted(10, 2, sigma, 20000, seed);
    core::Rng rng(seed, 3);
    const auto e = priv_range(data.input(2, 1, 0.01), PrivRangeParams{}, rng);
    REQUIRE(e.scalar);
    CHECK(e.scalar_estimand == "Lambda_Q");  // the model's published target, so runs measure scalar_ratio
    CHECK(*e.scalar / Lambda >= 1.0);
    CHECK(*e.scalar / Lambda <= std::pow(2.0, 1.5));
    CHECK(e.diagnostics.counters.at("histogram_noise_scale") == Approx(2.0 / 37));  // Lap(2/(eps m)), m = 37
    // One histogram over the m = 37 block maxima (a record moves one of them): l1 sensitivity 2/m of the
    // frequencies, (eps, delta) exactly (Theorem 5, Lemma 12).
    REQUIRE(e.ledger.entries().size() == 1);
    const auto& h = e.ledger.entries()[0];
    CHECK(h.mechanism == alg::Mechanism::stability_histogram);
    CHECK(h.records == 37);
    CHECK(h.sensitivity == Approx(2.0 / 37));
    const auto spent = alg::account(e.ledger, 0.01, alg::Neighbours::replace);
    CHECK(spent.epsilon == Approx(1));
    CHECK(spent.delta == Approx(0.01));
    PrivRangeParams tangent;
    tangent.tangent = true;
    core::Rng rng2(seed, 3);
    const auto g = priv_range(data.input(2, 1, 0.01), tangent, rng2);
    REQUIRE(g.scalar);
    CHECK(g.scalar_estimand == "g_Q2");
    CHECK(*g.scalar / (Lambda / 2) >= 1.0);
    CHECK(*g.scalar / (Lambda / 2) <= std::pow(2.0, 1.5));
  }
  // Determinism.
  const auto data = dt::shifted(10, 2, sigma, 20000, 5);
  core::Rng a(2, 2), b(2, 2);
  CHECK(*priv_range(data.input(2, 1, 0.01), PrivRangeParams{}, a).scalar ==
        *priv_range(data.input(2, 1, 0.01), PrivRangeParams{}, b).scalar);
}

TEST_CASE("dugler2026 PRIVRANGE returns BOTTOM when block maxima are spread over distinct bins",
          "[dugler2026]") {
  // Pair p of block j: x = c_j e_1, x' = 0 with c_j = 2^{j/4}: the paired differences of A = x x^T are
  // c_j^2 e_1 e_1^T, so m_j = c_j^4 / 2 = 2^{j-1}, each in its own bin (4 bins apart). Every released count
  // is 1, which passes the threshold 1 + 2 log(2/delta)/eps only when Lap(2/eps) > 2 log(2/delta)/eps:
  // probability delta/4 = 2.5e-7 per bin, so BOTTOM except with probability < 1e-5.
  const double delta = 1e-6, zeta = 0.01;
  PrivateRangeSettings s;
  const long m = private_range_blocks(s, alg::Budget{1, delta}, zeta), b = 2, d = 3;
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(d, 2 * m * b);
  for (long j = 0; j < m; ++j)
    for (long p = 0; p < b; ++p) {
      const long i = 2 * (j * b + p);
      X(0, i) = std::exp2(static_cast<double>(j) / 4.0);
    }
  const core::VectorSamples S(X);
  Eigen::MatrixXd G(d, X.cols());
  const Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(d, 1);
  for (long i = 0; i < X.cols(); ++i) S.apply(i, Q, G.col(i));
  PrivateRangeWorkspace ws;
  core::Rng rng(1, 2);
  alg::Ledger ledger;
  const auto rep = private_range(G, 1, alg::Budget{1, delta}, zeta, s, "range", ledger, ws, rng);
  CHECK_FALSE(rep.Lhat);
  // BOTTOM is a release too: (eps, delta) spent.
  CHECK(dt::within(alg::account(ledger, delta, alg::Neighbours::replace), 1, delta));
  CHECK(rep.occupied_bins == static_cast<std::size_t>(m));
  CHECK(rep.released_bins == 0);
  // The mutant zoo's seam (release = every_occupied_bin, not private) releases all m singleton bins, and
  // the estimate is safety x the left end of one of them: within a bin (a quarter octave) below some
  // 2^{j-1}, j < m.
  s.release = alg::BinRelease::every_occupied_bin;
  core::Rng same(1, 2);
  alg::Ledger broken_ledger;
  const auto broken = private_range(G, 1, alg::Budget{1, delta}, zeta, s, "range", broken_ledger, ws, same);
  CHECK(broken.released_bins == static_cast<std::size_t>(m));
  // Its ledger shows the defect: no threshold, delta = 1.
  CHECK_FALSE(dt::within(alg::account(broken_ledger, delta, alg::Neighbours::replace), 1, delta));
  REQUIRE(broken.Lhat);
  const double j = std::log2(*broken.Lhat / s.safety) + 1;
  CHECK(std::round(j) - j >= 0);
  CHECK(std::round(j) - j <= 0.25);
  CHECK((j > -0.5 && j < static_cast<double>(m) - 0.5));
}

TEST_CASE("stability_histogram_from_counts equals stability_histogram on the same multiset", "[dugler2026]") {
  const std::vector<std::int64_t> bins = {3, -1, 3, 3, 7, -1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
  const std::vector<alg::BinCount> counts = {{-1, 2}, {3, 13}, {7, 1}};
  const alg::Privacy priv{1, 0.1, alg::Neighbours::replace};
  for (std::uint64_t s = 0; s < 20; ++s) {
    core::Rng a(s, 1), b(s, 1);
    alg::Ledger l1, l2;
    const auto h1 = alg::stability_histogram(bins, priv, "h", l1, a);
    const auto h2 = alg::stability_histogram_from_counts(counts, bins.size(), priv, "h", l2, b);
    REQUIRE(l1.entries().size() == 1);
    REQUIRE(l2.entries().size() == 1);
    CHECK(l1.entries()[0].records == l2.entries()[0].records);
    CHECK(l1.entries()[0].truncation == l2.entries()[0].truncation);
    REQUIRE(h1.released.size() == h2.released.size());
    for (std::size_t i = 0; i < h1.released.size(); ++i) {
      CHECK(h1.released[i].bin == h2.released[i].bin);
      CHECK(h1.released[i].frequency == h2.released[i].frequency);
    }
    CHECK(h1.occupied == h2.occupied);
  }
  const std::vector<alg::BinCount> unsorted = {{3, 1}, {-1, 1}};
  core::Rng r(1, 1);
  alg::Ledger ledger;
  CHECK_THROWS_AS(alg::stability_histogram_from_counts(unsorted, 2, priv, "h", ledger, r), InvalidArgument);
}
