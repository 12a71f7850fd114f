#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/preprocessing/private_statistics.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

using namespace dpb;

namespace {

Eigen::MatrixXd gaussian_records(Eigen::Index d, Eigen::Index n, std::uint64_t seed) {
  core::Rng rng(seed, 1);
  return core::standard_normal_matrix(rng, d, n);
}

}  // namespace

TEST_CASE("the private norm scale covers the bulk of the norms and needs enough records", "[preprocessing]") {
  // Every record has norm exactly 3: bin floor(4 log2 3) = 6, right edge 2^{7/4} = 3.36.
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(4, 2000);
  X.row(0).setConstant(3.0);
  core::Rng rng(1, 2);
  alg::Ledger ledger;
  const auto scale = alg::private_norm_scale(X, alg::Budget{1.0, 1e-6}, ledger, rng);
  REQUIRE(scale.radius);
  CHECK(*scale.radius == Approx(std::exp2(7.0 / 4.0)));
  // One stability histogram over the n records at the given budget, replace-one.
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries()[0].mechanism == alg::Mechanism::stability_histogram);
  CHECK(ledger.entries()[0].records == 2000);
  CHECK(ledger.entries()[0].calibrated_for.epsilon == 1.0);
  CHECK(alg::account(ledger, 1e-6, alg::Neighbours::replace).epsilon <= 1.0 + 1e-6);
  // The threshold in counts is 2 log(2/delta)/eps + 1 = 30.0 at (1, 1e-6): 20 records cannot pass it.
  CHECK(alg::min_records_for_norm_scale(alg::Budget{1.0, 1e-6}) == 31);
  core::Rng rng2(1, 3);
  CHECK_FALSE(alg::private_norm_scale(X.leftCols(20), alg::Budget{1.0, 1e-6}, ledger, rng2).radius);
}

TEST_CASE("the clipped mean adds the noise of sensitivity 2R/n and moves by at most that", "[preprocessing]") {
  const auto X = gaussian_records(5, 400, 7);
  const alg::Budget budget{0.5, 1e-6};
  const double R = 2.0;
  core::Rng a(9, 1), b(9, 1);
  alg::Ledger ledger;
  const auto mean = alg::private_clipped_mean(X, R, budget, ledger, a);
  CHECK(mean.noise_sd == alg::analytic_gaussian_sigma(2 * R / 400, 0.5, 1e-6));
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries()[0].sensitivity == 2 * R / 400);
  CHECK(ledger.entries()[0].noise_scale == mean.noise_sd);
  CHECK(alg::account(ledger, 1e-6, alg::Neighbours::replace).epsilon == Approx(0.5).epsilon(1e-6));
  // The same noise on a neighbour (record 0 replaced by a huge point): the releases differ by the
  // change of the clipped mean alone, which is at most 2R/n.
  Eigen::MatrixXd Y = X;
  Y.col(0) = Eigen::VectorXd::Constant(5, -1e6);
  const auto neighbour = alg::private_clipped_mean(Y, R, budget, ledger, b);
  CHECK((mean.mean - neighbour.mean).norm() <= 2 * R / 400 * (1 + 1e-12));
  CHECK((mean.mean - neighbour.mean).norm() > R / 400);  // the worst case is nearly reached
}

TEST_CASE("explained variance: known answer, noise of sensitivity 2R^2/n, fractions in [0, 1]", "[preprocessing]") {
  // Records +-(2, 1, 0): variance 4 along e1, 1 along e2, total 5; no clipping at R = 3.
  Eigen::MatrixXd X(3, 1000);
  for (Eigen::Index i = 0; i < X.cols(); ++i) X.col(i) = (i % 2 ? 1.0 : -1.0) * Eigen::Vector3d(2, 1, 0);
  const Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(3, 2);
  core::Rng rng(4, 1);
  alg::Ledger ledger;
  const auto ev = alg::private_explained_variance(X, Q, 3.0, alg::Budget{1.0, 1e-6}, ledger, rng);
  CHECK(ev.noise_sd == alg::analytic_gaussian_sigma(2 * 9.0 / 1000, 1.0, 1e-6));
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries()[0].sensitivity == 2 * 9.0 / 1000);
  CHECK(alg::account(ledger, 1e-6, alg::Neighbours::replace).epsilon == Approx(1.0).epsilon(1e-6));
  // Noise sd ~ 0.08: 6 sd is 0.5.
  CHECK(ev.per_component(0) == Approx(4).margin(0.5));
  CHECK(ev.per_component(1) == Approx(1).margin(0.5));
  CHECK(ev.total == Approx(5).margin(0.5));
  const Eigen::VectorXd f = ev.fractions();
  CHECK(f.minCoeff() >= 0);
  CHECK(f.sum() <= 1 + 1e-12);

  // Sensitivity: the same noise on a neighbour moves the release by at most 2 R^2 / n.
  const auto G = gaussian_records(3, 1000, 8);
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::MatrixXd Y = G;
    core::Rng pick(trial, 5);
    Y.col(trial) = 10.0 * core::standard_normal_matrix(pick, 3, 1);
    core::Rng r1(6, trial), r2(6, trial);
    const auto a = alg::private_explained_variance(G, Q, 3.0, alg::Budget{1.0, 1e-6}, ledger, r1);
    const auto b = alg::private_explained_variance(Y, Q, 3.0, alg::Budget{1.0, 1e-6}, ledger, r2);
    Eigen::VectorXd da(3), db(3);
    da << a.per_component, a.total;
    db << b.per_component, b.total;
    CHECK((da - db).norm() <= 2 * 9.0 / 1000 * (1 + 1e-9));
  }
}

TEST_CASE("private statistics refuse invalid input", "[preprocessing]") {
  const auto X = gaussian_records(3, 10, 1);
  core::Rng rng(1, 1);
  alg::Ledger ledger;
  CHECK_THROWS_AS(alg::private_clipped_mean(X, 0.0, alg::Budget{1, 1e-6}, ledger, rng), InvalidArgument);
  CHECK_THROWS_AS(alg::private_clipped_mean(X, 1.0, alg::Budget{0, 1e-6}, ledger, rng), InvalidArgument);
  const Eigen::MatrixXd Q4 = Eigen::MatrixXd::Identity(4, 1);
  CHECK_THROWS_WITH(alg::private_explained_variance(X, Q4, 1.0, alg::Budget{1, 1e-6}, ledger, rng),
                    Catch::Contains("Q must be 3 x k"));
  const Eigen::MatrixXd none(3, 0);
  CHECK_THROWS_AS(alg::private_norm_scale(none, alg::Budget{1, 1e-6}, ledger, rng), InvalidArgument);
  CHECK(ledger.empty());  // nothing was released
}
