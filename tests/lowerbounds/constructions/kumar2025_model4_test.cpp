#include "lowerbounds/constructions/kumar2025_model4.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"

using dpb::core::Rng;
using dpb::lower::Model4;
using Eigen::MatrixXd;
using Eigen::VectorXd;

TEST_CASE("Model 4: M = (1-gamma) I + gamma v v^T, E Sigma = M (CLT tolerance), the paper's nu",
          "[kumar2025][constructions]") {
  const VectorXd v = VectorXd::Ones(4);
  const Model4 model(v, 0.3, 20.0);
  CHECK(model.spike().norm() == Approx(1));
  const VectorXd u = v / 2;
  CHECK((model.prior_mean() - (0.7 * MatrixXd::Identity(4, 4) + 0.3 * u * u.transpose())).norm() < 1e-14);
  Rng rng(40, 0);
  const int trials = 20000;
  MatrixXd sum = MatrixXd::Zero(4, 4), sum2 = MatrixXd::Zero(4, 4);
  for (int t = 0; t < trials; ++t) {
    const MatrixXd S = model.draw_covariance(rng);
    sum += S;
    sum2 += S.cwiseProduct(S);
  }
  const MatrixXd avg = sum / trials;
  const MatrixXd se = ((sum2 / trials - avg.cwiseProduct(avg)) / trials).cwiseSqrt();
  CHECK(((avg - model.prior_mean()).cwiseAbs().array() < 6 * se.array()).all());  // six SE per entry
  // nu = ceil(1600 d / gamma^2): d = 10, gamma = 0.3 -> 16000 / 0.09 = 177777.8 -> 177778.
  CHECK(dpb::lower::model4_default_nu(10, 0.3) == 177778);
  const Model4 paper(VectorXd::Unit(10, 0), 0.3);
  CHECK(paper.nu() == 177778);
  // With the paper's nu, Sigma concentrates at M (Lemma 32: within 6 sqrt(d/nu) = 0.045 relative).
  const MatrixXd S = paper.draw_covariance(rng);
  CHECK(dpb::core::top_eigenpairs(S - paper.prior_mean(), 1, dpb::core::EigenOrder::absolute)
            .values.cwiseAbs()[0] < 0.1);
  CHECK_THROWS_WITH(Model4(v, 0.3, 5.0), Catch::Contains("d + 1"));
  CHECK_THROWS_WITH(Model4(v, 1.0), Catch::Contains("gamma"));
}

TEST_CASE("Model 4: the posterior mean ((nu-d-1) M + n SigmaHat)/(nu+n-d-1) is orthogonal to SigmaHat - M",
          "[kumar2025][constructions]") {
  const Model4 model(VectorXd::Unit(4, 1), 0.3, 20.0);
  const Eigen::Index n = 5;
  const double w_n = 5.0 / (20 + 5 - 4 - 1), w_wrong = w_n + 0.1;
  Rng rng(41, 0);
  const int trials = 20000;
  double sum = 0, sum2 = 0, wrong = 0;
  for (int t = 0; t < trials; ++t) {
    const MatrixXd S = model.draw_covariance(rng);
    const MatrixXd X = model.sample(S, n, rng);
    const MatrixXd h = dpb::core::second_moment(X) - model.prior_mean();
    const double T = ((S - model.posterior_mean(X)).array() * h.array()).sum();
    sum += T;
    sum2 += T * T;
    wrong += ((S - model.prior_mean() - w_wrong * h).array() * h.array()).sum();
  }
  const double mean = sum / trials, se = std::sqrt((sum2 / trials - mean * mean) / trials);
  CHECK(std::abs(mean) < 4 * se);             // 4 SE: a correct posterior mean fails w.p. 6e-5 (CLT)
  CHECK(std::abs(wrong / trials) > 10 * se);  // a weight off by 0.1 is caught
}
