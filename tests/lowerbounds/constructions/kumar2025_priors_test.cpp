#include "lowerbounds/constructions/kumar2025_priors.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

using dpb::core::Rng;
using dpb::lower::gaussian_samples;
using dpb::lower::scaled_inverse_wishart;
using Eigen::MatrixXd;

TEST_CASE("scaled_inverse_wishart: E Sigma = scale R R / (nu - p - 1) (CLT tolerance), deterministic",
          "[kumar2025][constructions]") {
  const int p = 3;
  const double nu = 12;  // nu > p + 3: every entry has a finite variance, so the CLT applies
  MatrixXd R(p, p);
  R << 1.2, 0.3, 0.0, 0.3, 1.0, -0.2, 0.0, -0.2, 0.8;
  const MatrixXd mean = R * R;  // scale = nu - p - 1
  Rng rng(30, 0);
  const int trials = 20000;
  MatrixXd sum = MatrixXd::Zero(p, p), sum2 = MatrixXd::Zero(p, p);
  for (int t = 0; t < trials; ++t) {
    const MatrixXd S = scaled_inverse_wishart(R, nu - p - 1, nu, rng);
    sum += S;
    sum2 += S.cwiseProduct(S);
  }
  const MatrixXd avg = sum / trials;
  const MatrixXd se = ((sum2 / trials - avg.cwiseProduct(avg)) / trials).cwiseSqrt();
  // Six standard errors per entry: a correct sampler fails one of 9 entries w.p. < 2e-8.
  CHECK(((avg - mean).cwiseAbs().array() < 6 * se.array()).all());
  Rng a(1, 1), b(1, 1);
  CHECK(scaled_inverse_wishart(R, 2, 6.5, a) == scaled_inverse_wishart(R, 2, 6.5, b));  // real nu allowed
  CHECK_THROWS_WITH(scaled_inverse_wishart(R, 1, 1.5, a), Catch::Contains("nu > p - 1"));
  CHECK_THROWS_WITH(scaled_inverse_wishart(R, 0, 10, a), Catch::Contains("scale > 0"));
}

TEST_CASE("gaussian_samples: covariance Sigma even when singular (CLT tolerance), indefinite refused by name",
          "[kumar2025][constructions]") {
  const Eigen::Vector3d u(1, 2, 2), e1 = Eigen::Vector3d::UnitX();
  const MatrixXd sigma = u * u.transpose() / 9 + 0.5 * e1 * e1.transpose();  // rank 2
  Rng rng(31, 0);
  const int n = 40000;
  const MatrixXd X = gaussian_samples(sigma, n, rng, "test");
  REQUIRE(X.rows() == 3);
  // No component along the null direction u x e1.
  CHECK((u.cross(e1).transpose() * X).cwiseAbs().maxCoeff() < 1e-12);
  // Var(x_i x_j) = Sigma_ii Sigma_jj + Sigma_ij^2 for Gaussians; six standard errors per entry.
  const MatrixXd second = X * X.transpose() / n;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      CHECK(std::abs(second(i, j) - sigma(i, j)) <
            6 * std::sqrt((sigma(i, i) * sigma(j, j) + sigma(i, j) * sigma(i, j)) / n));
  CHECK_THROWS_WITH(gaussian_samples(-MatrixXd::Identity(2, 2), 3, rng, "kumar2025.model3"),
                    Catch::Contains("model3") && Catch::Contains("semidefinite"));
}
