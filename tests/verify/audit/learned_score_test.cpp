#include "verify/audit/learned_score.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"

using namespace dpb::verify;

TEST_CASE("output_features lists every released number, unchanged by the signs of Q's columns", "[audit]") {
  dpb::alg::Estimate e;
  CHECK(output_features(e).size() == 0);  // BOTTOM releases nothing
  e.Q = Eigen::MatrixXd(Eigen::Vector2d(0.6, 0.8));
  e.eigenvalues = Eigen::Vector2d(2, 1);
  e.mean = Eigen::Vector2d(5, 6);
  e.scalar = 7;
  const Eigen::VectorXd f = output_features(e);
  // Q Q^T's upper triangle (3), Q diag(lambda_1) Q^T's (3), both eigenvalues, the mean, the scalar.
  REQUIRE(f.size() == 3 + 3 + 2 + 2 + 1);
  CHECK(f(0) == Approx(0.36));
  CHECK(f(1) == Approx(0.48));
  CHECK(f(5) == Approx(2 * 0.64));
  CHECK(f(6) == 2);
  CHECK(f(8) == 5);
  CHECK(f(10) == 7);
  e.Q = Eigen::MatrixXd(-*e.Q);
  CHECK(output_features(e) == f);
}

TEST_CASE("fisher_direction recovers Sigma^-1 (m' - m) from samples", "[audit]") {
  // Two Gaussians with covariance diag(1, 4) and means 0 and (1, 1): the discriminant is (1, 1/4). With 20000
  // samples per side each coordinate's estimate has relative error ~1.5%: 10% tolerance is ~7 standard errors.
  dpb::core::Rng rng(7, dpb::core::hash_name("fisher"));
  std::vector<Eigen::VectorXd> a, b;
  for (int i = 0; i < 20000; ++i) {
    a.push_back(Eigen::Vector2d(dpb::core::standard_normal(rng), 2 * dpb::core::standard_normal(rng)));
    b.push_back(Eigen::Vector2d(1 + dpb::core::standard_normal(rng), 1 + 2 * dpb::core::standard_normal(rng)));
  }
  const Eigen::VectorXd w = fisher_direction(a, b);
  CHECK(w(0) == Approx(1.0).epsilon(0.1));
  CHECK(w(1) == Approx(0.25).epsilon(0.1));
  // A feature that never varies gets no weight, not an infinite one.
  for (auto* side : {&a, &b})
    for (auto& x : *side) x = Eigen::Vector3d(x(0), x(1), 3.0);
  const Eigen::VectorXd w3 = fisher_direction(a, b);
  CHECK(std::isfinite(w3.norm()));
  CHECK(std::abs(w3(2)) < 1e-6);
  CHECK_THROWS_AS(fisher_direction({a.front()}, b), dpb::InvalidArgument);
  b.back() = Eigen::Vector2d(0, 0);
  CHECK_THROWS_WITH(fisher_direction(a, b), Catch::Contains("shape changes"));
}
