#include "algorithms/sparse/sparse_pca_pipeline.hpp"

#include <catch2/catch.hpp>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "tests/algorithms/sparse/sparse_fixtures.hpp"

using namespace dpb::alg;
using dpb::core::Rng;
using Eigen::Index;
using Eigen::MatrixXd;

TEST_CASE("pipeline: BOTTOM from PrivNorm on the first half stops before PrivPCA", "[kumar2025]") {
  Ledger scratch;
  // First half: 40 dense blocks (never certified) -> PrivNorm returns BOTTOM at line 4 whatever the noise.
  // Second half: good blocks, never reached.
  const Index d = 6;
  const MatrixXd X = dpb::test::repeated_blocks(
      dpb::test::dense_block(d), 40, dpb::test::diagonal_block(dpb::test::spike_diagonal(d, 4)), 40);
  SparsePcaPipelineParams p;
  p.m = 40;
  p.tau = 1e-3;
  p.gamma = 0.5;
  p.sigma2 = 4;
  Rng rng(1, 1);
  const SparsePcaPipelineResult r = sparse_pca_pipeline(X, 2, Privacy{10, 0.5}, p, scratch, rng);
  CHECK_FALSE(r.v_priv);
  CHECK_FALSE(r.pca);
  CHECK(r.bottom.rfind("PrivNorm", 0) == 0);
  // Only PrivNorm's line-3 test ran, at (eps/2)/3, named by its stage.
  REQUIRE(scratch.entries().size() == 1);
  CHECK(scratch.entries()[0].step.rfind("PrivNorm (first half): line 3", 0) == 0);
  CHECK(scratch.entries()[0].calibrated_for.epsilon == Approx(10.0 / 2 / 3));
  CHECK_THROWS_AS(sparse_pca_pipeline(X.leftCols(1), 2, Privacy{10, 0.5}, p, scratch, rng),
                  dpb::InvalidArgument);
}

TEST_CASE("pipeline: PrivPCA gets PrivNorm's lambda_hat, Eq. 28 failure gives BOTTOM, not an exception",
          "[kumar2025]") {
  Ledger scratch;
  // Identical good blocks in both halves; tau such that Eq. 28 holds for lambda_hat ~ 4 but not for
  // lambda_hat < 3.6: with eps = 10 the noise of PrivNorm is ~0.05, so the PCA stage runs and releases e_1.
  const Index d = 6;
  const MatrixXd good = dpb::test::diagonal_block(dpb::test::spike_diagonal(d, 4));
  const MatrixXd X = dpb::test::repeated_blocks(good, 140, good, 0);
  SparsePcaPipelineParams p;
  p.m = 70;
  p.gamma = 0.5;
  p.sigma2 = 4;
  p.tau = 0.9 * 0.125 / 68;
  Rng rng(2, 1);
  const SparsePcaPipelineResult r = sparse_pca_pipeline(X, 2, Privacy{20, 0.9}, p, scratch, rng);
  REQUIRE(r.norm.lambda_hat);
  REQUIRE(r.pca);
  CHECK(r.pca->precondition_rhs == Approx(0.5 * *r.norm.lambda_hat / 16));
  // PrivNorm's three releases in part 0 (the first half), then PrivPCA's (none when Eq. 28 fails) in part 1,
  // each at (eps/2)/3. The halves compose in parallel: the plan spends the worst stage, at most eps/2.
  REQUIRE(scratch.entries().size() >= 3);
  for (std::size_t i = 0; i < scratch.entries().size(); ++i) {
    const LedgerEntry& e = scratch.entries()[i];
    CHECK(e.step.rfind(i < 3 ? "PrivNorm (first half): " : "PrivPCA (second half): ", 0) == 0);
    CHECK(e.part == (i < 3 ? 0 : 1));
    CHECK(e.calibrated_for.epsilon == Approx(20.0 / 2 / 3));
  }
  const Ledger plan = plan_sparse_pca_pipeline_ledger(X.cols(), X.rows(), 2, Privacy{20, 0.9}, p);
  CHECK(plan.entries().size() == 6);
  CHECK(account(scratch, 0.9, Neighbours::replace).epsilon <=
        account(plan, 0.9, Neighbours::replace).epsilon * (1 + 1e-12));
  CHECK(account(plan, 0.9, Neighbours::replace).epsilon <= 10 * (1 + 1e-9));
  if (r.pca->precondition_holds) {
    REQUIRE(r.v_priv);
    CHECK(r.v_priv->norm() == Approx(1));  // sigma_priv ~ 0.8 here: the direction itself is noise-dominated
  } else {
    CHECK(r.bottom.find("Eq. 28") != std::string::npos);
  }
  // A lambda_hat far below 4 (gamma = 0.5 would need 34 k tau <= lambda_hat / 32) must give BOTTOM.
  p.tau = 0.125 / 68 * 1.5;  // Eq. 28 needs lambda_hat >= 6 now; PrivNorm releases ~4
  Rng again(2, 1);
  const SparsePcaPipelineResult fail = sparse_pca_pipeline(X, 2, Privacy{20, 0.9}, p, scratch, again);
  REQUIRE(fail.pca);
  CHECK_FALSE(fail.v_priv);
  CHECK(fail.bottom.find("Eq. 28") != std::string::npos);
}

TEST_CASE("pipeline (scaled) recovers the sparse top eigenvector of Model 2", "[kumar2025]") {
  Ledger scratch;
  Rng model_rng(21, 0);
  const auto model = dpb::core::make_model("sparse_block_spike", {{"d", 30.0}, {"k", 3.0}}, model_rng);
  const auto& info = model->info();
  Rng data_rng(21, 1);
  const MatrixXd X = model->sample(200000, data_rng);
  SparsePcaPipelineParams p;
  p.m = 20;
  p.c_tau = 2;
  p.gamma = info.params.at("gamma");
  p.sigma2 = info.params.at("subgaussian_sigma2");
  p.block.final_threshold = 2;
  // Every noise scale x 1e-5: at this n the rigorous sigma_priv is ~6e3 (Delta_P ~ 272 sqrt2 k tau / ...),
  // and the line-13 bound (21/(eps/2)) log(12/(delta/2)) ~ 600 exceeds 0.2 m (spec §2.6).
  p.block.constants = SparseConstants{true, 1e-5};
  Rng rng(4, 1);
  const SparsePcaPipelineResult r = sparse_pca_pipeline(X, 3, Privacy{1, 1e-5}, p, scratch, rng);
  INFO(r.bottom << " | norm certified " << r.norm.blocks.certified_count << " tau " << r.norm.blocks.tau
                << " lambda_hat " << (r.norm.lambda_hat ? *r.norm.lambda_hat : -1.0) << " pca certified "
                << (r.pca ? r.pca->blocks.certified_count : -1));
  REQUIRE(r.v_priv);
  // b = 5000 per block per half; the estimate is dominated by the thresholding bias O(k tau / gap) ~ 0.1 in
  // sin; 0.05 in sin^2 leaves room for it and the scaled noise.
  CHECK(dpb::core::sin2_angle(*r.v_priv, info.target.col(0)) < 0.05);
}
