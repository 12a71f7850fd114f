#include <catch2/catch.hpp>

#include "algorithms/baselines/dp_gauss_1.hpp"
#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/sample_matrices.hpp"
#include "core/samplers.hpp"
#include "tests/algorithms/baselines/baseline_test_support.hpp"
#include "tests/support/statistics.hpp"

namespace tb = dpb::test::baselines;
using dpb::alg::Neighbours;

namespace {
constexpr const char* kId = "baseline.dp_gauss_1";

// Four samples along e1 with norms 1, 2, 2.5, 4 in d = 3.
Eigen::MatrixXd hand_built() {
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(3, 4);
  X(0, 0) = 1, X(0, 1) = 2, X(0, 2) = 2.5, X(0, 3) = -4;
  return X;
}
}  // namespace

TEST_CASE("dp_gauss_1 rejects invalid input", "[baselines]") {
  const auto s = tb::spiked(6, 1, 5.0, 50, 1);
  const dpb::core::ParamMap beta{{"beta", 3.0}};
  CHECK_THROWS_WITH(tb::run(kId, beta, tb::input(s.X, 1, 1, 0.0), 1), Catch::Contains("delta in (0, 1)"));
  CHECK_THROWS_AS(tb::run(kId, beta, tb::input(s.X, 1, -1, 0.1), 1), dpb::InvalidArgument);
  CHECK_THROWS_AS(tb::run(kId, beta, tb::input(s.X, 7, 1, 0.1), 1), dpb::InvalidArgument);
  // Without beta the radius comes from the oracle; without an oracle the message says what to give.
  CHECK_THROWS_WITH(tb::run(kId, {}, tb::input(s.X, 1, 1, 0.1), 1), Catch::Contains("beta"));
  CHECK_THROWS_AS(dpb::alg::algorithm_registry().make(kId, {{"mode", std::string("other")}}),
                  dpb::InvalidArgument);
  // The classical calibration is refused at eps >= 1.
  CHECK_THROWS_WITH(tb::run(kId, {{"beta", 3.0}, {"calibration", std::string("classical")}},
                            tb::input(s.X, 1, 1.0, 0.1), 1),
                    Catch::Contains("epsilon < 1"));
}

TEST_CASE("dp_gauss_1 trace clipping counts and scales exactly", "[baselines]") {
  const Eigen::MatrixXd X = hand_built();
  // beta = 2.5: norms 1, 2 and 2.5 (on the boundary, min{1, beta^2/Tr} = 1) pass; 4 is clipped.
  const auto e = tb::run(kId, {{"beta", 2.5}}, tb::input(X, 1, 1, 0.1), 1);
  CHECK(e.diagnostics.counters.at("clipped") == 1);
  CHECK(tb::run(kId, {{"beta", 1.5}}, tb::input(X, 1, 1, 0.1), 1).diagnostics.counters.at("clipped") == 3);
  // Shifted matrices: Tr A_i = tr C + ||z_i||^2 = 2 + ||z_i||^2 = 2.25, 3, 4.25, so beta^2 = 3.5 clips one.
  Eigen::MatrixXd Z = Eigen::MatrixXd::Zero(3, 3);
  Z(1, 0) = 0.5, Z(1, 1) = 1.0, Z(2, 2) = 1.5;
  dpb::core::ShiftedVectorSamples samples(Eigen::MatrixXd::Identity(3, 1), Eigen::VectorXd::Constant(1, 2.0),
                                          Z);
  dpb::alg::Input in;
  in.samples = &samples;
  in.privacy = {1, 0.1};
  CHECK(tb::run(kId, {{"beta", std::sqrt(3.5)}}, in, 1).diagnostics.counters.at("clipped") == 1);
}

TEST_CASE("dp_gauss_1 adds exactly the Gaussian noise of its formula", "[baselines]") {
  const auto s = tb::spiked(6, 1, 5.0, 200, 2);
  const double beta = 4.0, eps = 0.5, delta = 0.05;
  const dpb::core::ParamMap params{{"beta", beta}};
  // sd per neighbour notion and mode: sqrt(2) beta^2 (replace), beta^2 (add/remove, and as printed).
  const double sd_replace = dpb::alg::analytic_gaussian_sigma(std::sqrt(2.0) * beta * beta, eps, delta);
  const double sd_add = dpb::alg::analytic_gaussian_sigma(beta * beta, eps, delta);
  const auto e = tb::run(kId, params, tb::input(s.X, 2, eps, delta), 5);
  CHECK(e.diagnostics.counters.at("noise_sd") == Approx(sd_replace).epsilon(1e-12));
  CHECK(tb::run(kId, params, tb::input(s.X, 2, eps, delta, nullptr, Neighbours::add_remove), 5)
            .diagnostics.counters.at("noise_sd") == Approx(sd_add).epsilon(1e-12));
  CHECK(tb::run(kId, {{"beta", beta}, {"mode", std::string("faithful")}}, tb::input(s.X, 2, eps, delta), 5)
            .diagnostics.counters.at("noise_sd") == Approx(sd_add).epsilon(1e-12));
  const double classical = tb::run(kId, {{"beta", beta}, {"calibration", std::string("classical")}},
                                   tb::input(s.X, 2, eps, delta), 5)
                               .diagnostics.counters.at("noise_sd");
  CHECK(classical == Approx(std::sqrt(2.0) * beta * beta * std::sqrt(2 * std::log(1.25 / delta)) / eps));

  // Replay: the output is the top-k of (clipped SUM + symmetric noise of that sd) drawn from the same
  // stream. With this noise level a wrong sd would move the eigenvectors far beyond 1e-9.
  Eigen::MatrixXd clipped = s.X;
  for (Eigen::Index i = 0; i < clipped.cols(); ++i)
    if (clipped.col(i).norm() > beta) clipped.col(i) *= beta / clipped.col(i).norm();
  dpb::core::Rng rng(5, dpb::core::stream_id("baselines-test", 0, kId, 5, "noise"));
  const Eigen::MatrixXd noisy =
      clipped * clipped.transpose() + dpb::core::symmetric_gaussian(rng, 6, sd_replace);
  const auto expected = dpb::core::top_eigenpairs(noisy, 2);
  CHECK(dpb::core::projector_distance(*e.Q, expected.vectors, {dpb::core::Norm::fro}) < 1e-9);

  // Spread through the public output: with k = d the eigenvalues sum to the trace, so
  // n * sum(eigenvalues) - tr(S) = sum_i E_ii ~ N(0, d sd^2) exactly. 400 seeds with the data fixed: the
  // sample variance has relative sd sqrt(2/399) = 0.071; |ratio - 1| < 0.3 is a 4.2-sigma band.
  const Eigen::MatrixXd X2 = s.X.topRows(2);
  Eigen::MatrixXd c2 = X2;
  for (Eigen::Index i = 0; i < c2.cols(); ++i)
    if (c2.col(i).norm() > beta) c2.col(i) *= beta / c2.col(i).norm();
  const double trace = c2.squaredNorm();
  std::vector<double> deviations;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    const auto r = tb::run(kId, params, tb::input(X2, 2, eps, delta), 1000 + seed);
    deviations.push_back(200.0 * r.eigenvalues->sum() - trace);
  }
  CHECK(dpb::test::variance(deviations) / (2 * sd_replace * sd_replace) == Approx(1.0).margin(0.3));
  CHECK(std::abs(dpb::test::mean(deviations)) < 4 * std::sqrt(2.0 / 400) * sd_replace);  // 4-sigma
}

TEST_CASE("dp_gauss_1 approaches non-private PCA with tiny noise, and is deterministic", "[baselines]") {
  const auto s = tb::spiked(8, 2, 5.0, 2000, 4);
  const auto in = tb::input(s.X, 2, 1e6, 0.1, &s.info());
  const auto priv = tb::run(kId, {}, in, 3);
  const auto exact = tb::run("baseline.nonprivate_pca", {}, in, 3);
  // At eps = 1e6 the analytic sd is ~ Delta / sqrt(2 eps) = 1e-3 beta^2 ~ 0.1 on a sum with eigengap
  // n lambda = 1e4, so Davis–Kahan puts the subspaces within ~1e-4 x sqrt(d k) / 1e4 << 1e-4 (clipping is
  // inactive with probability 0.99 by the choice of beta).
  CHECK(dpb::core::projector_distance(*priv.Q, *exact.Q, {dpb::core::Norm::fro}) < 1e-4);
  const auto again = tb::run(kId, {}, in, 3);
  CHECK(*priv.Q == *again.Q);
  const auto other = tb::run(kId, {}, tb::input(s.X, 2, 1.0, 0.1, &s.info()), 4);
  CHECK_FALSE(*other.Q == *tb::run(kId, {}, tb::input(s.X, 2, 1.0, 0.1, &s.info()), 5).Q);
}

TEST_CASE("dp_gauss_1 claims: corrected is exact, faithful reports its larger replace-one eps",
          "[baselines]") {
  const auto s = tb::spiked(6, 1, 5.0, 100, 2);
  const auto run_corrected = tb::run(kId, {{"beta", 3.0}}, tb::input(s.X, 1, 1, 0.01), 1);
  const auto& corrected = run_corrected.claim;
  CHECK(corrected.epsilon == 1.0);
  CHECK(corrected.scope == dpb::alg::ClaimScope::worst_case);
  // One Analyze-Gauss release with the true sensitivity sqrt(2) beta^2, calibrated for the whole budget.
  REQUIRE(run_corrected.ledger.entries().size() == 1);
  const auto& entry = run_corrected.ledger.entries()[0];
  CHECK(entry.step == "Analyze-Gauss release of the trace-clipped sum");
  CHECK(entry.sensitivity == Approx(std::sqrt(2.0) * 9.0));
  CHECK(entry.calibrated_for.epsilon == 1.0);
  CHECK(entry.calibrated_for.delta == 0.01);
  CHECK(dpb::alg::account(run_corrected.ledger, 0.01, Neighbours::replace).epsilon <= 1.0 + 1e-6);
  const auto faithful =
      tb::run(kId, {{"beta", 3.0}, {"mode", std::string("faithful")}}, tb::input(s.X, 1, 1, 0.01), 1);
  // sd = analytic(beta^2), true sensitivity sqrt(2) beta^2: eps from the exact profile at z = sd/(sqrt2
  // beta^2).
  const double z = dpb::alg::analytic_gaussian_sigma(1.0, 1.0, 0.01) / std::sqrt(2.0);
  CHECK(faithful.claim.epsilon == Approx(dpb::alg::gaussian_epsilon(z, 0.01)).epsilon(1e-9));
  CHECK(faithful.claim.epsilon > 1.2);
  // The ledger records the true sensitivity with the printed noise: the accountant finds the same eps.
  CHECK(faithful.ledger.entries().at(0).sensitivity == Approx(std::sqrt(2.0) * 9.0));
  CHECK(dpb::alg::account(faithful.ledger, 0.01, Neighbours::replace).epsilon ==
        Approx(faithful.claim.epsilon).epsilon(1e-6));
  CHECK_NOTHROW(dpb::alg::check_claim(faithful.ledger, faithful.claim, kId));
  const auto add_remove = tb::run(kId, {{"beta", 3.0}, {"mode", std::string("faithful")}},
                                  tb::input(s.X, 1, 1, 0.01, nullptr, Neighbours::add_remove), 1);
  CHECK(add_remove.claim.epsilon == 1.0);
  CHECK(dpb::alg::account(add_remove.ledger, 0.01, Neighbours::add_remove).epsilon <= 1.0 + 1e-6);
}

TEST_CASE("dp_gauss_1 error shrinks with n", "[baselines]") {
  // Sampling error ~ sqrt(d/n) and noise/gap ~ 1/n: 16x the samples at least quarters the error in
  // expectation; 0.6 leaves room for the 4-trial average.
  CHECK(tb::mean_error(kId, {}, 16000, 4) < 0.6 * tb::mean_error(kId, {}, 1000, 4));
}
