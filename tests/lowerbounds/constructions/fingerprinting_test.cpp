#include "lowerbounds/constructions/fingerprinting.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

using dpb::core::Rng;
using namespace dpb::lower;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// A simple (eps, delta)-DP covariance mechanism: clip every sample to norm R, average x x^T, add
// N(0, s^2) to all d^2 entries with the classical Gaussian calibration for the replace-one Frobenius
// sensitivity 2 R^2 / n, then keep the block entries (P_G, post-processing).
CovarianceMechanism clipped_gaussian(const Model3& model, double R, double eps, double delta) {
  return [&model, R, eps, delta](const MatrixXd& X, Rng& rng) {
    MatrixXd clipped = X;
    for (Eigen::Index j = 0; j < X.cols(); ++j)
      if (X.col(j).norm() > R) clipped.col(j) *= R / X.col(j).norm();
    MatrixXd out = dpb::core::second_moment(clipped);
    const double s = dpb::alg::classical_gaussian_sigma(2 * R * R / double(X.cols()), eps, delta);
    dpb::alg::Ledger ledger;
    dpb::alg::gaussian_mechanism(out, dpb::alg::gaussian_entry("second moment", 2 * R * R / double(X.cols()), s,
                                                               {eps, delta, dpb::alg::Neighbours::replace}),
                                 ledger, rng);
    return model.project(out);
  };
}

}  // namespace

TEST_CASE("Eq. 10 score and Eq. 12: sum_i Z_i = n <M - Sigma, P_G(SigmaHat) - Sigma>",
          "[kumar2025][constructions]") {
  const Model3 model(8, 4);
  Rng rng(50, 0);
  const MatrixXd S = model.draw_covariance(rng);
  const MatrixXd X = model.sample(S, 6, rng);
  const MatrixXd M = MatrixXd::Random(8, 8);
  double sum = 0;
  for (Eigen::Index i = 0; i < X.cols(); ++i) sum += model3_score(model, M, S, X.col(i));
  const MatrixXd PSH = model.project(dpb::core::second_moment(X));
  CHECK(sum == Approx(6 * ((M - S).array() * (PSH - S).array()).sum()).epsilon(1e-10));
}

TEST_CASE("Eq. 53 holds for a DP mechanism and is violated by a non-private one claimed DP",
          "[kumar2025][constructions]") {
  const Model3 model(20, 10);  // 2k - k - 1 = 9 > 7: the score's second moments are finite
  const Eigen::Index n = 10;
  const double eps = 0.5, delta = 1e-5;
  Rng rng(51, 0);
  const auto dp = model3_fingerprinting(model, n, clipped_gaussian(model, 9, eps, delta), 3000, rng);
  const Inequality holds = eq53(dp.scores, eps, delta);
  // The true |E[Z - Z']| is at most rhs; its estimate errs by about difference_se, which is ~1/30 of
  // 2 eps E|Z'| here (the noise dominates both Z and Z', so sd(Z - Z') ~ 2 E|Z'| and trials = 3000); the
  // estimate plus four standard errors stays below rhs unless Eq. 53 fails.
  CHECK(holds.lhs + 4 * dp.scores.difference_se <= holds.rhs);
  CHECK(std::abs(dp.scores.z_prime) < 4 * std::sqrt(dp.scores.z_prime2 / dp.scores.trials));  // E Z' = 0
  // Lemma 6 holds for any mechanism: lhs <= rhs (estimates; rhs's standard error is well below the gap).
  CHECK(lemma6(dp).holds());
  // Lemma 5's ratio E Z / (rho eps) is what a verifier tracks across (n, d, k, eps); its constant is
  // unspecified.
  CHECK(score_ratio(dp.scores, eps) == Approx(dp.scores.z / (dp.scores.rho * eps)));
  CHECK_THROWS_WITH(score_ratio(dp.scores, 0), Catch::Contains("eps > 0"));

  // The empirical covariance itself, with a claimed eps = 0.01 and delta = 0: E Z = E||P_G(SigmaHat) -
  // Sigma||^2 > 0 while E Z' = 0 and 2 eps E|Z'| is small, so Eq. 53 fails by many standard errors.
  const CovarianceMechanism leaky = [&model](const MatrixXd& X, Rng&) {
    return model.project(dpb::core::second_moment(X));
  };
  const auto np = model3_fingerprinting(model, n, leaky, 3000, rng);
  const Inequality broken = eq53(np.scores, 0.01, 0);
  CHECK(broken.lhs - 6 * np.scores.difference_se > broken.rhs);
  CHECK(np.correlation ==
        Approx(np.projection_risk).epsilon(1e-12));  // M = P_G(SigmaHat): Lemma 6 with A = 0
}

TEST_CASE("Model 4 scores: E Z' = 0, Eq. 52 (E Z = E<P~ - P, SigmaHat - Sigma>), Lemma 36 on every draw",
          "[kumar2025][constructions]") {
  const Model4 model(VectorXd::Unit(6, 0), 0.3, 40.0);
  const Eigen::Index n = 30;
  Rng rng(52, 0);
  const DirectionMechanism top = [](const MatrixXd& X, Rng&) {
    return VectorXd(dpb::core::top_eigenpairs(dpb::core::second_moment(X), 1).vectors.col(0));
  };
  const auto report = model4_fingerprinting(model, n, top, 3000, rng);
  CHECK(std::abs(report.scores.z_prime) < 4 * std::sqrt(report.scores.z_prime2 / report.scores.trials));
  // Eq. 52 in expectation: E Z_I = E<P~ - P, SigmaHat - Sigma>, 4 standard errors of Z_I.
  CHECK(std::abs(report.scores.z - report.correlation) <
        4 * std::sqrt(report.scores.z2 / report.scores.trials));
  CHECK(report.correlation > 0);  // Lemma 36 averaged
  for (int t = 0; t < 100; ++t) {
    const MatrixXd S = model.draw_covariance(rng);
    const Inequality l36 = lemma36(S, dpb::core::second_moment(model.sample(S, n, rng)));
    CHECK(l36.lhs <= l36.rhs + 1e-12);
  }
  CHECK_THROWS_WITH(model4_fingerprinting(model, n, top, 1, rng), Catch::Contains("trials >= 2"));
}
