#include "core/models/signal_plus_noise.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/samplers.hpp"
#include "tests/core/models/model_checks.hpp"

using dpb::InvalidArgument;
using dpb::core::make_model;
using dpb::core::Rng;
using dpb::test::MessageContains;

TEST_CASE("signal_plus_noise: exact population quantities", "[models]") {
  Rng rng(2, 1);
  const auto model = make_model("signal_plus_noise", {{"d", 4.0}, {"sigma2", 0.25}}, rng);
  const auto& info = model->info();
  const Eigen::VectorXd v = info.target.col(0);
  CHECK(v.norm() == Approx(1.0));
  CHECK((info.Sigma - (v * v.transpose() + 0.25 * Eigen::MatrixXd::Identity(4, 4))).norm() < 1e-12);
  CHECK(info.eigenvalues == Eigen::Vector4d(1.25, 0.25, 0.25, 0.25));
  CHECK(*info.kappa == Approx(1.25));  // 1 + sigma^2
  // liu2022 §4.5: V = ((d+3) s2 + (d+1) s2^2)/(1+s2)^2 = (1.75 + 0.3125)/1.5625,
  // gamma^2 = s2 (4 + 2 s2)/(1+s2)^2 = 1.125/1.5625.
  CHECK(*info.V == Approx(1.32));
  CHECK(*info.gamma2 == Approx(0.72));
  CHECK(info.params.at("sigma2") == 0.25);
  CHECK(info.params.at("lambda1") == 1.25);
  CHECK(info.params.at("lambda2") == 0.25);
  CHECK(info.params.at("V") == *info.V);
  CHECK(info.params.at("gamma2") == *info.gamma2);
  CHECK_FALSE(info.effective_rank.has_value());
}

TEST_CASE("signal_plus_noise: samples are sigma g + s a v, drawn sign first, to the bit", "[models]") {
  // The stored results of dugler2026's headline runs depend on these draws and roundings: per sample the
  // sign, then the d normals; sigma g_j rounded, then s a v_j added.
  const Eigen::VectorXd v = Eigen::Vector3d(2, -1, 2) / 3;
  const dpb::core::SignedSpikePlusNoise model("signal_plus_noise", v, 1.5, 0.3);
  Rng drawn(17, 4), expected(17, 4);
  const Eigen::MatrixXd X = model.sample(40, drawn);
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    const double s = dpb::core::rademacher(expected);
    for (Eigen::Index j = 0; j < 3; ++j) {
      const double noise = 0.3 * dpb::core::standard_normal(expected);
      CHECK(X(j, i) == noise + (s * 1.5) * v[j]);
    }
  }
  CHECK(drawn() == expected());  // the same words used
}

TEST_CASE("signal_plus_noise: the empirical covariance, V and gamma^2 match the stated values", "[models]") {
  Rng rng(2, 2);
  const auto model = make_model("signal_plus_noise", {{"d", 4.0}, {"sigma2", 0.25}}, rng);
  const auto& info = model->info();
  const Eigen::MatrixXd X = model->sample(500000, rng);
  dpb::test::check_second_moment(X, info.Sigma);
  dpb::test::check_V(X, info.Sigma, info.eigenvalues[0], *info.V);
  dpb::test::check_gamma2(X, info.Sigma, info.eigenvalues[0], *info.gamma2, info.target.col(0), rng);
}

TEST_CASE("signal_plus_noise: invalid parameters are rejected", "[models]") {
  Rng rng(2, 3);
  CHECK_THROWS_MATCHES(make_model("signal_plus_noise", {{"sigma", 0.1}}, rng), InvalidArgument,
                       MessageContains("allowed: d, p, sigma2"));
  CHECK_THROWS_MATCHES(make_model("signal_plus_noise", {{"sigma2", 0.0}}, rng), InvalidArgument,
                       MessageContains("'sigma2' must be a finite number > 0"));
  CHECK_THROWS_AS(make_model("signal_plus_noise", {{"d", 1.0}}, rng), InvalidArgument);
}
