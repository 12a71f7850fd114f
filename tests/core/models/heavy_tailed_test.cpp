#include "core/models/heavy_tailed.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "tests/core/models/model_checks.hpp"

using dpb::InvalidArgument;
using dpb::core::heavy_tail_mixture_alpha;
using dpb::core::make_model;
using dpb::core::Rng;
using dpb::test::MessageContains;

TEST_CASE("heavy_tail_mixture: exact population quantities", "[models]") {
  Rng rng(5, 1);
  const auto model = make_model("heavy_tail_mixture", {{"d", 4.0}, {"alpha", 0.1}}, rng);
  const auto& info = model->info();
  const Eigen::VectorXd v = info.target.col(0);
  // liu2022 §5.4: Sigma = (1 - alpha) I + sqrt(alpha) v v^T.
  CHECK((info.Sigma - (0.9 * Eigen::MatrixXd::Identity(4, 4) + std::sqrt(0.1) * v * v.transpose())).norm() <
        1e-12);
  CHECK(info.eigenvalues[0] == Approx(0.9 + std::sqrt(0.1)));
  CHECK(info.eigenvalues.tail(3) == Eigen::Vector3d::Constant(0.9));
  CHECK(*info.kappa == Approx((0.9 + std::sqrt(0.1)) / std::sqrt(0.1)));
  // E[(A - Sigma)^2] = v v^T + 0.9 (d+2) I - Sigma^2: eigenvalue 1 + 5.4 - lambda1^2 = 4.920786 along v
  // (vs 5.4 - 0.81 across), divided by lambda1^2 = 1.479210.
  CHECK(*info.V == Approx(3.3266339));
  CHECK_FALSE(info.gamma2.has_value());
  CHECK(info.params.at("alpha") == 0.1);

  const Eigen::MatrixXd X = model->sample(500000, rng);
  dpb::test::check_second_moment(X, info.Sigma);
  dpb::test::check_V(X, info.Sigma, info.eigenvalues[0], *info.V);
}

TEST_CASE("heavy_tail_mixture_alpha: Eq. (30) by hand", "[models]") {
  // n = 1000, eps = 1, delta = 1e-5: the delta term is ln((1 - e^-1)/(4e-5 e))/1000 = ln(5813.62)/1000.
  CHECK(heavy_tail_mixture_alpha(1000, 10, 1.0, 1e-5) == Approx((5.0 - 1.0) / 1000));  // dimension term binds
  CHECK(heavy_tail_mixture_alpha(1000, 100, 1.0, 1e-5) == Approx(0.0086679560));       // delta term binds
  CHECK(heavy_tail_mixture_alpha(1, 100, 1.0, 1e-5) == 1.0);                           // capped at 1
  CHECK_THROWS_MATCHES(heavy_tail_mixture_alpha(1000, 2, 1.0, 1e-5), InvalidArgument,
                       MessageContains("d/2 > eps"));
  CHECK_THROWS_AS(heavy_tail_mixture_alpha(1000, 10, 1.0, 0.2), InvalidArgument);  // log term <= 0
  CHECK_THROWS_AS(heavy_tail_mixture_alpha(1000, 10, 0.0, 1e-5), InvalidArgument);
  CHECK_THROWS_AS(heavy_tail_mixture_alpha(0, 10, 1.0, 1e-5), InvalidArgument);
}

TEST_CASE("fixed_gap_heavy_tail: exact population quantities", "[models]") {
  Rng rng(5, 2);
  const auto model =
      make_model("fixed_gap_heavy_tail", {{"d", 4.0}, {"lambda1", 2.0}, {"lambda2", 1.0}}, rng);
  const auto& info = model->info();
  const Eigen::VectorXd v = info.target.col(0);
  CHECK((info.Sigma - (v * v.transpose() + Eigen::MatrixXd::Identity(4, 4))).norm() < 1e-12);
  CHECK(info.eigenvalues.isApprox(Eigen::Vector4d(2, 1, 1, 1)));
  CHECK(*info.kappa == Approx(2.0));
  // p = 1/8, c^2 = d lambda1 = 8, tau^2 = 8/7: along v p c^4 + (7/8) 6 (64/49) - 4 = 8 + 48/7 - 4 = 76/7,
  // across 48/7 - 1; V = (76/7)/4 = 19/7.
  CHECK(*info.V == Approx(19.0 / 7));
  CHECK(info.params.at("spike_probability") == Approx(0.125));

  const Eigen::MatrixXd X = model->sample(500000, rng);
  dpb::test::check_second_moment(X, info.Sigma);
  dpb::test::check_V(X, info.Sigma, info.eigenvalues[0], *info.V);
}

TEST_CASE("heavy-tailed models: invalid parameters are rejected", "[models]") {
  Rng rng(5, 3);
  CHECK_THROWS_MATCHES(make_model("heavy_tail_mixture", {{"alpha", 1.5}}, rng), InvalidArgument,
                       MessageContains("(0, 1]"));
  CHECK_THROWS_AS(make_model("heavy_tail_mixture", {{"alpha", 0.0}}, rng), InvalidArgument);
  CHECK_THROWS_MATCHES(make_model("heavy_tail_mixture", {{"n", 100.0}}, rng), InvalidArgument,
                       MessageContains("allowed: d, p, alpha"));
  CHECK_THROWS_MATCHES(make_model("fixed_gap_heavy_tail", {{"lambda1", 1.0}, {"lambda2", 1.0}}, rng),
                       InvalidArgument, MessageContains("lambda1 > lambda2"));
  CHECK_THROWS_AS(make_model("fixed_gap_heavy_tail", {{"lambda2", -1.0}}, rng), InvalidArgument);
}
