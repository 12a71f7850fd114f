#include "algorithms/sparse/private_sparse_pca.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "tests/algorithms/sparse/sparse_fixtures.hpp"
#include "tests/support/statistics.hpp"

using namespace dpb::alg;
using dpb::core::Rng;
using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

constexpr Index kPrivPcaD = 6;

// Public inputs for the hand-built datasets: lambda_hat = 4 = lambda_1 of diag(4, 1, ..., 1), gamma = 1/2,
// and a tau small enough for Eq. 28 (34 k tau <= gamma lambda_hat / 16 = 1/8).
PrivPcaParams hand_params(Index k, long long m) {
  PrivPcaParams p;
  p.m = m;
  p.lambda_hat = 4;
  p.gamma = 0.5;
  p.sigma2 = 4;
  p.tau = 0.125 / (34.0 * static_cast<double>(k)) * 0.9;
  return p;
}

}  // namespace

TEST_CASE("PrivPCA rejects invalid input and bad private-mode constants", "[kumar2025]") {
  Ledger scratch;
  const MatrixXd X = dpb::test::repeated_blocks(
      dpb::test::diagonal_block(dpb::test::spike_diagonal(kPrivPcaD, 4)), 40, MatrixXd(kPrivPcaD, 0), 0);
  Rng rng(1, 1);
  const Privacy ok{1, 0.1};
  PrivPcaParams p = hand_params(2, 40);
  CHECK_THROWS_AS(private_sparse_pca(X, 7, ok, p, scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(private_sparse_pca(X, 2, Privacy{1, 0}, p, scratch, rng), dpb::InvalidArgument);
  p.m = 30;  // Lemma 10 needs m > 30
  CHECK_THROWS_WITH(private_sparse_pca(X, 2, ok, p, scratch, rng), Catch::Contains("m > 30"));
  p = hand_params(2, 40);
  p.gamma = 1.5;
  CHECK_THROWS_WITH(private_sparse_pca(X, 2, ok, p, scratch, rng), Catch::Contains("gamma"));
  p = hand_params(2, 40);
  p.block.count_noise_scale = 2;  // below Lemma 8's 3
  CHECK_THROWS_WITH(private_sparse_pca(X, 2, ok, p, scratch, rng), Catch::Contains("count_noise_scale"));
  p = hand_params(2, 40);
  p.block.final_threshold = 16;  // < 4 * 4 + 1
  CHECK_THROWS_WITH(private_sparse_pca(X, 2, ok, p, scratch, rng), Catch::Contains("final_threshold"));
  p = hand_params(2, 40);
  p.gauss_multiplier = 3;  // Corollary 2's text; Fact 1 at eps/3 needs 6 (A6)
  CHECK_THROWS_WITH(private_sparse_pca(X, 2, ok, p, scratch, rng), Catch::Contains("gauss_multiplier"));
  p = hand_params(2, 241);  // 240 samples
  CHECK_THROWS_WITH(private_sparse_pca(X, 2, ok, p, scratch, rng), Catch::Contains("need m <= n"));
}

TEST_CASE("PrivPCA checks Eq. 28 before touching the data: refuse, or BOTTOM on request", "[kumar2025]") {
  Ledger scratch;
  const MatrixXd X = dpb::test::repeated_blocks(
      dpb::test::diagonal_block(dpb::test::spike_diagonal(kPrivPcaD, 4)), 40, MatrixXd(kPrivPcaD, 0), 0);
  PrivPcaParams p = hand_params(2, 40);
  p.tau = 0.125 / 68.0 * 1.01;  // just above the Eq. 28 boundary for k = 2
  Rng rng(2, 1);
  CHECK_THROWS_WITH(private_sparse_pca(X, 2, Privacy{1, 0.1}, p, scratch, rng), Catch::Contains("Eq. 28"));
  p.precondition_bottom = true;
  Rng used(2, 1), fresh(2, 1);
  const PrivPcaResult r = private_sparse_pca(X, 2, Privacy{1, 0.1}, p, scratch, used);
  CHECK_FALSE(r.v_priv);
  CHECK(r.bottom.find("Eq. 28") != std::string::npos);
  CHECK(used() == fresh());  // no randomness (and no data) was used
  CHECK(scratch.empty());    // and nothing was released
  // Just inside the boundary it runs.
  p.tau = 0.125 / 68.0 * 0.999;
  Rng again(2, 1);
  CHECK(private_sparse_pca(X, 2, Privacy{10, 0.5}, p, scratch, again).precondition_holds);
  // Scaled mode records the failure but runs.
  p.tau = 0.01;
  p.block.constants = SparseConstants{true, 0.01};
  Rng scaled(2, 1);
  const PrivPcaResult s = private_sparse_pca(X, 2, Privacy{1, 0.1}, p, scratch, scaled);
  CHECK_FALSE(s.precondition_holds);
  CHECK(s.blocks.certified_count == 40);
}

TEST_CASE("PrivPCA returns BOTTOM at line 4 exactly when |C| + L - (3/eps) log(12/delta) < 0.8 m",
          "[kumar2025]") {
  Ledger scratch;
  // 35 certified blocks diag(4, 1, ...) and 5 dense blocks (not 2-RCS). m = 40, eps = 3, delta = 0.5: the
  // bound is log(24) = 3.18, and BOTTOM iff L < 32 - 35 + 3.18 = 0.18, about half the time.
  const MatrixXd X =
      dpb::test::repeated_blocks(dpb::test::diagonal_block(dpb::test::spike_diagonal(kPrivPcaD, 4)), 35,
                                 dpb::test::dense_block(kPrivPcaD), 5);
  const Privacy privacy{3, 0.5};
  const PrivPcaParams p = hand_params(2, 40);
  const double bound = 3.0 / 3 * std::log(12 / 0.5);
  int bottoms = 0;
  for (int seed = 0; seed < 200; ++seed) {
    Rng rng(seed, 3);
    const PrivPcaResult r = private_sparse_pca(X, 2, privacy, p, scratch, rng);
    REQUIRE(r.blocks.certified_count == 35);
    CHECK(r.blocks.count_bound == Approx(bound));
    CHECK(std::abs(r.blocks.L) <= bound);
    const bool expected = 35 + r.blocks.L - bound < 0.8 * 40;
    CHECK(r.bottom.rfind("line 4", 0) == (expected ? 0 : std::string::npos));
    bottoms += expected;
  }
  CHECK(bottoms > 50);  // both branches are exercised
  CHECK(bottoms < 150);
}

TEST_CASE("PrivPCA returns BOTTOM at line 13 exactly when Z + xi - (21/eps) log(12/delta) <= 0.8 m",
          "[kumar2025]") {
  Ledger scratch;
  // 34 blocks diag(4, 1, ...) and 6 blocks diag(4.5, 1, ...): all certified, but the two groups are 0.5 > 4
  // tau apart, so f = 34 (p = 1) and f = 6 (p = 0): Z = 34. eps = 30, delta = 0.5: the line-13 bound is 0.7
  // log(24) = 2.22 and BOTTOM iff xi <= 0.22 (about half the time); line 4 always passes.
  const MatrixXd X =
      dpb::test::repeated_blocks(dpb::test::diagonal_block(dpb::test::spike_diagonal(kPrivPcaD, 4)), 34,
                                 dpb::test::diagonal_block(dpb::test::spike_diagonal(kPrivPcaD, 4.5)), 6);
  const Privacy privacy{30, 0.5};
  const PrivPcaParams p = hand_params(2, 40);
  const double bound = 21.0 / 30 * std::log(12 / 0.5);
  int bottoms = 0;
  for (int seed = 0; seed < 200; ++seed) {
    Rng rng(seed, 4);
    const PrivPcaResult r = private_sparse_pca(X, 2, privacy, p, scratch, rng);
    REQUIRE(r.blocks.certified_count == 40);
    REQUIRE(r.blocks.xi);
    CHECK(r.blocks.Z == Approx(34));
    CHECK(r.blocks.f.head(34).isConstant(34));
    CHECK(r.blocks.f.tail(6).isConstant(6));
    CHECK(std::abs(*r.blocks.xi) <= bound);
    const bool expected = r.blocks.Z + *r.blocks.xi - bound <= 0.8 * 40;
    CHECK(r.bottom.rfind("line 13", 0) == (expected ? 0 : std::string::npos));
    bottoms += expected;
  }
  CHECK(bottoms > 50);
  CHECK(bottoms < 150);
}

TEST_CASE("PrivPCA noise: with k = d, P_til = P_hat + (W + W^T)/2 with W_ij ~ N(0, sigma_priv^2)",
          "[kumar2025]") {
  Ledger scratch;
  // Identical blocks: both tests always pass (eps = 10, delta = 0.5, m = 70), P_hat = e1 e1^T is fixed, and
  // top_{d^2} keeps every entry, so the diagonal of P_til - P_hat is N(0, sigma_priv^2), the off-diagonal
  // N(0, sigma_priv^2 / 2). sigma_priv is recomputed here from spec A5/A6.
  const MatrixXd X = dpb::test::repeated_blocks(
      dpb::test::diagonal_block(dpb::test::spike_diagonal(kPrivPcaD, 4)), 70, MatrixXd(kPrivPcaD, 0), 0);
  const Privacy privacy{10, 0.5};
  const PrivPcaParams p = hand_params(kPrivPcaD, 70);
  const double Delta_P = 272 * std::sqrt(2.0) * kPrivPcaD * p.tau / (0.5 * 0.75 * 4);
  const double sigma = 6 * Delta_P / 10 * std::sqrt(std::log(6 / 0.5));
  std::vector<double> diag, off;
  for (int seed = 0; seed < 300; ++seed) {
    Rng rng(seed, 5);
    const PrivPcaResult r = private_sparse_pca(X, kPrivPcaD, privacy, p, scratch, rng);
    REQUIRE(r.v_priv);
    REQUIRE(r.sigma_priv == Approx(sigma).epsilon(1e-12));
    REQUIRE(r.v_hat.cwiseAbs().isApprox(VectorXd::Unit(kPrivPcaD, 0)));
    const MatrixXd noise = r.P_til - r.P_hat;
    for (Index i = 0; i < kPrivPcaD; ++i)
      for (Index j = 0; j < kPrivPcaD; ++j) (i == j ? diag : off).push_back(noise(i, j));
  }
  const auto normal = [](double s) { return [s](double x) { return dpb::test::normal_cdf(x / s); }; };
  // DKW at level 1e-6: a correct sampler fails with probability <= 1e-6 (off-diagonal pairs are
  // duplicated by symmetry, which only makes the bound conservative by sqrt 2; use half the pairs).
  CHECK(dpb::test::ks_statistic(diag, normal(sigma)) < dpb::test::ks_critical(diag.size(), 1e-6));
  std::vector<double> upper;
  for (std::size_t t = 0; t < off.size(); t += 2) upper.push_back(off[t]);
  CHECK(dpb::test::ks_statistic(upper, normal(sigma / std::sqrt(2.0))) <
        dpb::test::ks_critical(upper.size(), 1e-6) * std::sqrt(2.0));
  // The ledger: both tests, then the Gaussian release on P_hat charged for the rigorous Delta_P; the plan
  // is the same ledger, and it spends at most the request.
  Ledger ledger;
  Rng one(0, 5);
  const PrivPcaResult r = private_sparse_pca(X, kPrivPcaD, privacy, p, ledger, one);
  REQUIRE(ledger.entries().size() == 3);
  const LedgerEntry& release = ledger.entries()[2];
  CHECK(release.mechanism == Mechanism::gaussian);
  CHECK(release.sensitivity == Approx(Delta_P).epsilon(1e-12));
  CHECK(release.noise_scale == r.sigma_priv);
  REQUIRE(ledger.entries().size() == 3);
  dpb::test::check_plan_matches(plan_private_sparse_pca_ledger(X.cols(), X.rows(), kPrivPcaD, privacy, p),
                                ledger);
  CHECK(account(ledger, privacy.delta, Neighbours::replace).epsilon <= privacy.epsilon * (1 + 1e-9));
  // The paper's Delta_P is the rigorous one times (1 - gamma/2)/4; the ledger still charges the rigorous one.
  PrivPcaParams paper = p;
  paper.rigorous_sensitivity = false;
  Rng rng(1, 5);
  Ledger paper_ledger;
  const PrivPcaResult pr = private_sparse_pca(X, kPrivPcaD, privacy, paper, paper_ledger, rng);
  CHECK(pr.Delta_P == Approx(Delta_P * 0.75 / 4));
  CHECK(pr.proven_Delta_P == Approx(Delta_P));
  REQUIRE(paper_ledger.entries().size() == 3);
  CHECK(paper_ledger.entries()[2].sensitivity == Approx(Delta_P));
  CHECK(account(paper_ledger, privacy.delta, Neighbours::replace).epsilon > privacy.epsilon);
}

TEST_CASE("PrivPCA (scaled) recovers the sparse top eigenvector of Model 2, deterministic per seed",
          "[kumar2025]") {
  Ledger scratch;
  Rng model_rng(8, 0);
  const auto model = dpb::core::make_model("sparse_block_spike", {{"d", 30.0}, {"k", 3.0}}, model_rng);
  const auto& info = model->info();
  Rng data_rng(8, 1);
  const MatrixXd X = model->sample(40000, data_rng);
  PrivPcaParams p;
  p.m = 20;
  p.c_tau = 2;
  p.lambda_hat = info.params.at("lambda1");
  p.gamma = info.params.at("gamma");
  p.sigma2 = info.params.at("subgaussian_sigma2");
  p.block.final_threshold = 1;  // 17 tau would erase the signal at this size (spec §2.6)
  // Every noise scale x 1e-5: the rigorous sigma_priv at b = 2000 is ~6e3, far above the entries of P_hat.
  p.block.constants = SparseConstants{true, 1e-5};
  Rng a(9, 1), b(9, 1);
  const PrivPcaResult r = private_sparse_pca(X, 3, Privacy{1, 1e-5}, p, scratch, a);
  INFO("sigma_priv " << r.sigma_priv << " tau " << r.blocks.tau << " sin2(v_hat) "
                     << dpb::core::sin2_angle(r.v_hat, info.target.col(0)));
  REQUIRE(r.v_priv);
  // b = 2000 per block, tau = 2 sigma^2 sqrt(log 30 / 2000) ~ 0.37: every block is certified and all are
  // friends; the sampling error of T_tau(SigmaBar) is O(k tau / gap) and the scaled Gaussian noise ~0.06.
  CHECK(r.blocks.certified_count == 20);
  CHECK(dpb::core::sin2_angle(*r.v_priv, info.target.col(0)) < 0.05);
  CHECK(*r.v_priv == *private_sparse_pca(X, 3, Privacy{1, 1e-5}, p, scratch, b).v_priv);
}
