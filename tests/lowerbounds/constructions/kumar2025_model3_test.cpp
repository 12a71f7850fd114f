#include "lowerbounds/constructions/kumar2025_model3.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"

using dpb::core::Rng;
using dpb::lower::Model3;
using Eigen::MatrixXd;

TEST_CASE("Model 3: block-diagonal positive definite k-RCS Sigma with prior mean I",
          "[kumar2025][constructions]") {
  const Model3 model(20, 10);
  CHECK(model.blocks() == 2);
  Rng rng(3, 0);
  const MatrixXd S = model.draw_covariance(rng);
  CHECK((S - model.project(S)).isZero(0));  // nothing outside the blocks
  CHECK((S.array() != 0).cast<int>().rowwise().sum().maxCoeff() == 10);
  CHECK(dpb::core::symmetric_eigenvalues(S).minCoeff() > 0);
  // E Sigma_b = (k-1) I / (2k - k - 1) = I. Mean of 4000 draws, six standard errors per entry (2k = 20 >
  // k + 3: finite variances).
  const int trials = 4000;
  MatrixXd sum = MatrixXd::Zero(20, 20), sum2 = MatrixXd::Zero(20, 20);
  for (int t = 0; t < trials; ++t) {
    const MatrixXd D = model.draw_covariance(rng);
    sum += D;
    sum2 += D.cwiseProduct(D);
  }
  const MatrixXd avg = sum / trials;
  const MatrixXd se = ((sum2 / trials - avg.cwiseProduct(avg)) / trials).cwiseSqrt();
  const MatrixXd expected = model.project(MatrixXd::Identity(20, 20));
  CHECK(((avg - expected).cwiseAbs().array() <= 6 * se.array()).all());
  CHECK_THROWS_WITH(Model3(20, 3), Catch::Contains("k | d"));
}

TEST_CASE("Model 3: the posterior mean is orthogonal to functions of X (Monte Carlo), a wrong weight is not",
          "[kumar2025][constructions]") {
  // E[Sigma | X] is characterised by E<Sigma - E[Sigma|X], h(X)> = 0 for every h; with h = SigmaHat_G - I
  // and a shrinkage weight w instead of w_n = n/(n + k - 1) the expectation is (w_n - w) E||SigmaHat_G -
  // I||^2.
  const Model3 model(20, 10);  // 2k - k - 1 = 9 > 7: the fourth moments T needs are finite
  const Eigen::Index n = 5;
  const double w_n = 5.0 / 14, w_wrong = w_n + 0.1;
  const MatrixXd I = MatrixXd::Identity(20, 20);
  Rng rng(4, 0);
  const int trials = 20000;
  double sum = 0, sum2 = 0, wrong = 0;
  for (int t = 0; t < trials; ++t) {
    const MatrixXd S = model.draw_covariance(rng);
    const MatrixXd X = model.sample(S, n, rng);
    const MatrixXd h = model.project(dpb::core::second_moment(X)) - model.project(I);
    const double T = ((S - model.posterior_mean(X)).array() * h.array()).sum();
    sum += T;
    sum2 += T * T;
    wrong += ((S - model.project(I) - w_wrong * h).array() * h.array()).sum();
  }
  const double mean = sum / trials, se = std::sqrt((sum2 / trials - mean * mean) / trials);
  // Within 4 standard errors of 0 (a correct posterior mean fails w.p. 6e-5 under the CLT) ...
  CHECK(std::abs(mean) < 4 * se);
  // ... while the weight off by 0.1 moves the mean by 0.1 E||h||^2 >= 0.1 E||P_G(SigmaHat) - Sigma||_F^2
  // = 0.1 * 2 E[Tr(Sigma_b)^2 + ||Sigma_b||_F^2] / n >= 0.1 * 2 (k^2 + k) / n = 4.4 (Jensen, E Sigma_b = I),
  // while se is about 0.12 here: far outside.
  CHECK(std::abs(wrong / trials) > 10 * se);
  // Posterior mean of one block by hand: (n SigmaHat_b + (k-1) I) / (n + k - 1) with X = e_1 (n = 1).
  MatrixXd X = MatrixXd::Zero(20, 1);
  X(0, 0) = 2;
  const MatrixXd post = model.posterior_mean(X);
  CHECK(post(0, 0) == Approx((4 + 9) / 10.0));
  CHECK(post(1, 1) == Approx(9 / 10.0));
  CHECK(post(0, 10) == 0);
}

TEST_CASE("Lemma 30's failure bound (d/k)(e^2/10)^{(k+1)/2}", "[kumar2025][constructions]") {
  // d = 1000, k = 40: 25 * exp(20.5 * (2 - ln 10)) = 25 * exp(-6.20299) = 0.0505841
  CHECK(dpb::lower::model3_norm_failure_bound(1000, 40) == Approx(0.0505841).epsilon(1e-5));
  // ... and the measured frequency of ||Sigma||_op > 10 respects it at d = 20, k = 10 (bound 2 * 0.1893 =
  // 0.379).
  const Model3 model(20, 10);
  Rng rng(5, 0);
  int exceed = 0;
  const int trials = 2000;
  for (int t = 0; t < trials; ++t)
    exceed += dpb::core::top_eigenpairs(model.draw_covariance(rng), 1).values[0] > 10;
  CHECK(exceed / double(trials) <= dpb::lower::model3_norm_failure_bound(20, 10));
}
