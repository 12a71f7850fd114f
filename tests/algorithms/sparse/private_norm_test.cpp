#include "algorithms/sparse/private_norm.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "core/models/model.hpp"
#include "tests/algorithms/sparse/sparse_fixtures.hpp"
#include "tests/support/statistics.hpp"

using namespace dpb::alg;
using dpb::core::Rng;
using Eigen::Index;
using Eigen::MatrixXd;

namespace {

constexpr Index kPrivNormD = 6;

PrivNormParams hand_params(long long m) {
  PrivNormParams p;
  p.m = m;
  p.gamma = 0.5;
  p.sigma2 = 4;
  p.tau = 1e-3;
  return p;
}

}  // namespace

TEST_CASE("PrivNorm rejects invalid input", "[kumar2025]") {
  Ledger scratch;
  const MatrixXd X = dpb::test::repeated_blocks(
      dpb::test::diagonal_block(dpb::test::spike_diagonal(kPrivNormD, 4)), 40, MatrixXd(kPrivNormD, 0), 0);
  Rng rng(1, 1);
  PrivNormParams p = hand_params(40);
  CHECK_THROWS_AS(private_norm(X, 0, Privacy{1, 0.1}, p, scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(private_norm(X, 2, Privacy{1, 0}, p, scratch, rng), dpb::InvalidArgument);
  p.gamma = 0;
  CHECK_THROWS_WITH(private_norm(X, 2, Privacy{1, 0.1}, p, scratch, rng), Catch::Contains("gamma"));
  p = hand_params(20);
  CHECK_THROWS_WITH(private_norm(X, 2, Privacy{1, 0.1}, p, scratch, rng), Catch::Contains("m > 30"));
}

TEST_CASE("PrivNorm noise: lambda_hat - ||T_17tau(SigmaBar)||_op ~ N(0, sigma_priv^2), Delta = 68 k tau",
          "[kumar2025]") {
  Ledger scratch;
  // Identical blocks diag(4, 1, ...): both tests always pass at eps = 10, delta = 0.5, m = 70, and the
  // noiseless value is exactly 4. sigma_priv is recomputed from spec A10: (6 * 68 k tau / eps)
  // sqrt(log(6/delta)).
  const MatrixXd X = dpb::test::repeated_blocks(
      dpb::test::diagonal_block(dpb::test::spike_diagonal(kPrivNormD, 4)), 70, MatrixXd(kPrivNormD, 0), 0);
  const Privacy privacy{10, 0.5};
  const PrivNormParams p = hand_params(70);
  const double sigma = 6 * 68 * 2 * 1e-3 / 10 * std::sqrt(std::log(6 / 0.5));
  std::vector<double> noise;
  for (int seed = 0; seed < 500; ++seed) {
    Rng rng(seed, 6);
    const PrivNormResult r = private_norm(X, 2, privacy, p, scratch, rng);
    REQUIRE(r.lambda_hat);
    REQUIRE(r.norm_before_noise == Approx(4).epsilon(1e-12));
    REQUIRE(r.sigma_priv == Approx(sigma).epsilon(1e-12));
    noise.push_back(*r.lambda_hat - 4);
  }
  // DKW at level 1e-6.
  CHECK(dpb::test::ks_statistic(noise, [sigma](double x) { return dpb::test::normal_cdf(x / sigma); }) <
        dpb::test::ks_critical(noise.size(), 1e-6));
  // The ledger: both tests and the Gaussian release, charged for 68 k tau; the plan is the same ledger.
  Ledger ledger;
  Rng one(0, 6);
  const PrivNormResult r = private_norm(X, 2, privacy, p, ledger, one);
  REQUIRE(ledger.entries().size() == 3);
  const LedgerEntry& release = ledger.entries()[2];
  CHECK(release.mechanism == Mechanism::gaussian);
  CHECK(release.sensitivity == Approx(68 * 2 * 1e-3).epsilon(1e-12));
  CHECK(release.noise_scale == r.sigma_priv);
  CHECK(release.calibrated_for.epsilon == Approx(10.0 / 3));
  REQUIRE(ledger.entries().size() == 3);
  dpb::test::check_plan_matches(plan_private_norm_ledger(X.cols(), X.rows(), 2, privacy, p), ledger);
  CHECK(account(ledger, privacy.delta, Neighbours::replace).epsilon <= privacy.epsilon * (1 + 1e-9));
  // Paper mode: the noise is calibrated to 17 k tau, the ledger still charges 68 k tau and so spends more.
  PrivNormParams paper = p;
  paper.rigorous_sensitivity = false;
  Rng rng(1, 6);
  Ledger paper_ledger;
  const PrivNormResult pr = private_norm(X, 2, privacy, paper, paper_ledger, rng);
  CHECK(pr.sensitivity == Approx(17 * 2 * 1e-3));
  CHECK(pr.proven_sensitivity == Approx(68 * 2 * 1e-3));
  REQUIRE(paper_ledger.entries().size() == 3);
  CHECK(paper_ledger.entries()[2].sensitivity == Approx(68 * 2 * 1e-3));
  CHECK(account(paper_ledger, privacy.delta, Neighbours::replace).epsilon > privacy.epsilon);
}

TEST_CASE("PrivNorm returns BOTTOM when no block is certified, certifies without the lambda condition",
          "[kumar2025]") {
  Ledger scratch;
  const Privacy privacy{10, 0.5};
  Rng rng(2, 6);
  const MatrixXd dense =
      dpb::test::repeated_blocks(dpb::test::dense_block(kPrivNormD), 40, MatrixXd(kPrivNormD, 0), 0);
  const PrivNormResult none = private_norm(dense, 2, privacy, hand_params(40), scratch, rng);
  CHECK_FALSE(none.lambda_hat);
  CHECK(none.blocks.certified_count == 0);
  CHECK(none.blocks.bottom.rfind("line 4", 0) == 0);
  // A small top eigenvalue (1.5) still certifies: Alg 3 line 2 has no lambda_1 condition.
  const MatrixXd small = dpb::test::repeated_blocks(
      dpb::test::diagonal_block(dpb::test::spike_diagonal(kPrivNormD, 1.5)), 40, MatrixXd(kPrivNormD, 0), 0);
  const PrivNormResult r = private_norm(small, 2, privacy, hand_params(40), scratch, rng);
  CHECK(r.blocks.certified_count == 40);
  REQUIRE(r.lambda_hat);
  CHECK(r.norm_before_noise == Approx(1.5));
}

TEST_CASE("PrivNorm (scaled) on Model 2 meets the spec §4.3 check, deterministic per seed", "[kumar2025]") {
  Ledger scratch;
  Rng model_rng(12, 0);
  const auto model = dpb::core::make_model("sparse_block_spike", {{"d", 30.0}, {"k", 3.0}}, model_rng);
  const auto& info = model->info();
  Rng data_rng(12, 1);
  const MatrixXd X = model->sample(200000, data_rng);
  PrivNormParams p;
  p.m = 20;
  p.c_tau = 2;
  p.gamma = info.params.at("gamma");
  p.sigma2 = info.params.at("subgaussian_sigma2");
  p.block.final_threshold = 2;
  p.block.constants = SparseConstants{true, 0.01};
  Rng a(3, 1), b(3, 1);
  const PrivNormResult r = private_norm(X, 3, Privacy{1, 1e-5}, p, scratch, a);
  REQUIRE(r.lambda_hat);
  CHECK(r.blocks.certified_count == 20);
  // spec §4.3: given ||SigmaBar - Sigma||_{inf,inf} < rho = 2 tau (the premise, checked), Lemma 27 bounds
  // | ||T_rho(SigmaBar)||_op - lambda_1 | <= 2 k rho; the release adds N(0, sigma_priv^2): allow 5 sd.
  const double rho = 2 * r.blocks.tau;
  REQUIRE((r.blocks.SigmaBar - info.Sigma).cwiseAbs().maxCoeff() < rho / 2);
  CHECK(std::abs(r.norm_before_noise - info.eigenvalues[0]) <= 2 * 3 * rho);
  CHECK(std::abs(*r.lambda_hat - r.norm_before_noise) <= 5 * r.sigma_priv);
  CHECK(*r.lambda_hat == *private_norm(X, 3, Privacy{1, 1e-5}, p, scratch, b).lambda_hat);
}
