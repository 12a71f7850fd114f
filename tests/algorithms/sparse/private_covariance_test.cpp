#include "algorithms/sparse/private_covariance.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/sparse/sparse_matrix_ops.hpp"
#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "core/samplers.hpp"
#include "tests/support/statistics.hpp"

using namespace dpb::alg;
using dpb::core::Rng;
using Eigen::Index;
using Eigen::MatrixXd;

namespace {

PrivCovParams params_with(double sigma2) {
  PrivCovParams p;
  p.sigma2 = sigma2;
  return p;
}

}  // namespace

TEST_CASE("PrivCov rejects invalid input with what is allowed", "[kumar2025]") {
  const MatrixXd X = MatrixXd::Ones(4, 10);
  Rng rng(1, 1);
  const Privacy ok{0.5, 1e-5};
  CHECK_THROWS_AS(private_covariance(X, 0, ok, params_with(1), rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(private_covariance(X, 5, ok, params_with(1), rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(private_covariance(X, 2, Privacy{0.5, 0.0}, params_with(1), rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(private_covariance(X, 2, Privacy{-1, 1e-5}, params_with(1), rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(private_covariance(X, 2, ok, params_with(0), rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(private_covariance(X, 2, Privacy{0.5, 1e-5, Neighbours::add_remove}, params_with(1), rng),
                  dpb::InvalidArgument);
  MatrixXd bad = X;
  bad(1, 1) = std::nan("");
  CHECK_THROWS_WITH(private_covariance(bad, 2, ok, params_with(1), rng), Catch::Contains("NaN"));
  PrivCovParams beta = params_with(1);
  beta.beta = 1.5;
  CHECK_THROWS_WITH(private_covariance(X, 2, ok, beta, rng), Catch::Contains("beta must lie in (0, 1)"));
}

TEST_CASE("PrivCov calibration matches the closed forms of spec §2.1", "[kumar2025]") {
  const Index n = 1000, d = 20, k = 3;
  const double eps = 0.5, delta = 1e-6, sigma2 = 2, beta = 0.05;
  PrivCovParams p = params_with(sigma2);
  p.beta = beta;
  const PrivCovCalibration c = calibrate_private_covariance(n, d, k, Privacy{eps, delta}, p);
  const double L = std::log(6.0 * n * d / beta);
  CHECK(c.R * c.R == Approx(2 * sigma2 * L));
  CHECK(c.delta_row == Approx(delta / (2 * d)));
  // b = 32 sigma^2 log(6nd/beta) sqrt(2 d log(2/delta)) sqrt(k log(2 d^2/delta)) / (n eps)
  const double b = 32 * sigma2 * L * std::sqrt(2.0 * d * std::log(2 / delta)) *
                   std::sqrt(k * std::log(2.0 * d * d / delta)) / (n * eps);
  CHECK(c.b_select == Approx(b).epsilon(1e-12));
  CHECK(c.b_value == c.b_select);
  CHECK(c.composed_epsilon <= eps);          // Lemma 1 over d rows fits the budget
  CHECK(c.composed_delta == Approx(delta));  // d delta_row + delta0
  // Conservative accounting: the selection gets half the row budget, so its scale more than doubles.
  p.conservative_rows = true;
  const PrivCovCalibration cc = calibrate_private_covariance(n, d, k, Privacy{eps, delta}, p);
  CHECK(cc.b_select > 2 * c.b_select);
  CHECK(cc.b_value ==
        Approx(cc.Delta / (cc.eps_row / 2 / k)).epsilon(1e-9));  // basic composition wins for k = 3
  // Scaled mode multiplies the noise, nothing else.
  p.conservative_rows = false;
  p.constants = SparseConstants{true, 0.01};
  CHECK(calibrate_private_covariance(n, d, k, Privacy{eps, delta}, p).b_select == Approx(0.01 * b));
}

TEST_CASE("PrivCov noise: with k = d the diagonal release is SigmaHat_ii + Lap(b) exactly", "[kumar2025]") {
  // k = d selects every entry, so M_ii - SigmaHat_ii is one Lap(b_value) draw. The data are fixed; over 400
  // seeds x d = 5 draws the KS statistic against Lap(b) must stay below the DKW bound at level 1e-6.
  const Index d = 5;
  Rng data_rng(2, 0);
  const MatrixXd X = dpb::core::standard_normal_matrix(data_rng, d, 200);
  const Privacy privacy{1.0, 1e-3};
  const PrivCovParams p = params_with(1.0);
  std::vector<double> noise, offdiag;
  double b = 0;
  for (int seed = 0; seed < 400; ++seed) {
    Rng rng(seed, 7);
    const PrivCovResult r = private_covariance(X, d, privacy, p, rng);
    b = r.calibration.b_value;
    for (Index i = 0; i < d; ++i) noise.push_back(r.M(i, i) - r.truncated_second_moment(i, i));
    offdiag.push_back(r.M(0, 1) - r.truncated_second_moment(0, 1));
  }
  const auto laplace_cdf = [b](double x) {
    return x < 0 ? 0.5 * std::exp(x / b) : 1 - 0.5 * std::exp(-x / b);
  };
  CHECK(dpb::test::ks_statistic(noise, laplace_cdf) < dpb::test::ks_critical(noise.size(), 1e-6));
  // The off-diagonal is the average of two independent Lap(b): variance b^2 (= 2 b^2 / 2). 400 draws; the
  // sample variance of a Laplace average has relative sd ~ sqrt(kurtosis term / 400) ~ 0.1: allow 40%.
  CHECK(dpb::test::variance(offdiag) == Approx(b * b).epsilon(0.4));
}

TEST_CASE("PrivCov is deterministic for a seed; faithful mode leaves the diagonal at 0", "[kumar2025]") {
  Rng data_rng(3, 0);
  const MatrixXd X = dpb::core::standard_normal_matrix(data_rng, 6, 50);
  PrivCovParams p = params_with(1.0);
  p.constants = SparseConstants{true, 1e-4};
  Rng a(3, 1), b(3, 1), c(4, 1);
  const MatrixXd Ma = private_covariance(X, 2, Privacy{1, 1e-5}, p, a).M;
  CHECK(Ma == private_covariance(X, 2, Privacy{1, 1e-5}, p, b).M);
  CHECK(Ma != private_covariance(X, 2, Privacy{1, 1e-5}, p, c).M);
  CHECK(Ma.isApprox(Ma.transpose()));
  CHECK(is_k_rcs(Ma, 2));  // M_ij != 0 needs j in S_i, |S_i| = k
  p.fill_diagonal = false;
  Rng f(3, 1);
  const PrivCovResult faithful = private_covariance(X, 2, Privacy{1, 1e-5}, p, f);
  CHECK(faithful.M.diagonal().isZero(0));
}

TEST_CASE("PrivCov (scaled) recovers the support; Thm 1's sharp bound holds; error shrinks with n",
          "[kumar2025]") {
  Rng model_rng(5, 0);
  const auto model =
      dpb::core::make_model("sparse_block_spike", {{"d", 12.0}, {"k", 3.0}, {"shuffle", 1.0}}, model_rng);
  const MatrixXd& Sigma = model->info().Sigma;
  PrivCovParams p = params_with(model->info().params.at("subgaussian_sigma2"));
  p.constants = SparseConstants{true, 1e-3};
  const Privacy privacy{1.0, 1e-5};
  std::vector<double> errors;
  for (Index n : {2000, 20000, 200000}) {
    double total = 0;
    for (int trial = 0; trial < 3; ++trial) {
      Rng rng(10 + trial, static_cast<std::uint64_t>(n));
      const MatrixXd X = model->sample(n, rng);
      const PrivCovResult r = private_covariance(X, 3, privacy, p, rng);
      const double samp = max_abs_difference(r.truncated_second_moment, Sigma);
      const double lambda_n = samp + r.max_abs_noise;
      const double err = dpb::core::operator_norm(r.M - Sigma);
      // spec §4.1 check 1, deterministic given the observed maxima: entrywise 2 lambda_n, op 4 k lambda_n.
      CHECK(max_abs_difference(r.M, Sigma) <= 2 * lambda_n);
      CHECK(err <= 4 * 3 * lambda_n);
      // Eq. 5, deterministic: j not in S_i implies |Sigma_ij| <= 2 lambda_n. So a row whose nonzeros all
      // exceed 2 lambda_n has S_i = supp(Sigma_i) exactly (|S_i| = k = nnz of every row here).
      Index recovered = 0;
      for (Index i = 0; i < 12; ++i) {
        const auto& S = r.supports[static_cast<std::size_t>(i)];
        bool exact = true;
        for (Index j = 0; j < 12; ++j) {
          const bool in = std::find(S.begin(), S.end(), j) != S.end();
          if (!in) CHECK(std::abs(Sigma(i, j)) <= 2 * lambda_n);
          exact = exact && (in == (Sigma(i, j) != 0));
        }
        recovered += exact;
      }
      // At n = 200000, lambda_n ~ 0.02: every row whose smallest block entry exceeds 0.04 is recovered; for
      // this fixed model that is all rows but the block with one entry 0.006.
      if (n == 200000) CHECK(recovered >= 9);
      total += err;
    }
    errors.push_back(total / 3);
  }
  // In the sampling regime the error scales like n^{-1/2}: a factor ~3.2 per decade; demand > 2.
  CHECK(errors[0] > 2 * errors[1]);
  CHECK(errors[1] > 2 * errors[2]);
}
