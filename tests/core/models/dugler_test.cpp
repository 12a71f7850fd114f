#include "core/models/dugler.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/sample_matrices.hpp"
#include "tests/core/models/model_checks.hpp"

using dpb::InvalidArgument;
using dpb::core::make_model;
using dpb::core::Rng;
using dpb::core::ShiftedVectorSamples;
using dpb::test::MessageContains;

TEST_CASE("dugler_k1: lambda1 is an amplitude, exact population quantities", "[models]") {
  Rng rng(4, 1);
  const auto model = make_model("dugler_k1", {{"d", 4.0}, {"lambda1", 2.0}, {"sigma", 0.5}}, rng);
  const auto& info = model->info();
  const Eigen::VectorXd v = info.target.col(0);
  CHECK((info.Sigma - (4.0 * v * v.transpose() + 0.25 * Eigen::MatrixXd::Identity(4, 4))).norm() < 1e-12);
  CHECK(info.eigenvalues == Eigen::Vector4d(4.25, 0.25, 0.25, 0.25));
  CHECK(*info.kappa == Approx(4.25 / 4.0));
  // lambda1^2 V = (d+3) a^2 s2 + (d+1) s2^2 = 7 + 0.3125; lambda1^2 gamma^2 = 4 a^2 s2 + 2 s2^2 = 4.125.
  CHECK(*info.V == Approx(7.3125 / (4.25 * 4.25)));
  CHECK(*info.gamma2 == Approx(4.125 / (4.25 * 4.25)));
  CHECK(info.params.at("amplitude") == 2.0);
  CHECK(info.params.at("lambda1") == 4.25);
  CHECK(info.params.at("gap") == 4.0);  // lambda_1 - lambda_2 of Sigma
  CHECK(info.params.at("gamma") == Approx(std::sqrt(4.125) / 4.25));

  const Eigen::MatrixXd X = model->sample(500000, rng);
  dpb::test::check_second_moment(X, info.Sigma);
  dpb::test::check_V(X, info.Sigma, info.eigenvalues[0], *info.V);
  dpb::test::check_gamma2(X, info.Sigma, info.eigenvalues[0], *info.gamma2, v, rng);
}

TEST_CASE("dugler_shifted: exact population quantities and the default Lambda profile", "[models]") {
  Rng rng(4, 2);
  // Default profile Lambda_j = gap (1 + (k - j)/k): k = 2, gap = 1 gives (1.5, 1).
  const auto model = make_model("dugler_shifted", {{"d", 5.0}, {"k", 2.0}, {"sigma", 0.5}}, rng);
  const auto& info = model->info();
  const Eigen::MatrixXd& Vk = info.target;
  REQUIRE(Vk.cols() == 2);
  CHECK((Vk.transpose() * Vk - Eigen::MatrixXd::Identity(2, 2)).norm() < 1e-12);
  CHECK((info.Sigma - (Vk * Eigen::Vector2d(1.5, 1.0).asDiagonal() * Vk.transpose() +
                       0.25 * Eigen::MatrixXd::Identity(5, 5)))
            .norm() < 1e-12);
  Eigen::VectorXd eigenvalues(5);
  eigenvalues << 1.75, 1.25, 0.25, 0.25, 0.25;
  CHECK(info.eigenvalues == eigenvalues);
  CHECK(*info.kappa == Approx(3.5));
  // A - Sigma = z z^T - sigma^2 I: lambda1^2 V = (d+1) sigma^4 = 0.375, lambda1^2 gamma^2 = 2 sigma^4.
  CHECK(*info.V == Approx(0.375 / (1.75 * 1.75)));
  CHECK(*info.gamma2 == Approx(0.125 / (1.75 * 1.75)));
  // PRIVRANGE's targets (dugler2026 Thm 5) at every frame: Lambda(Q) = 2 sigma^4, g_Q^2 = sigma^4.
  CHECK(info.params.at("Lambda_Q") == 0.125);
  CHECK(info.params.at("g_Q2") == 0.0625);
  CHECK(info.params.at("gap") == 1.0);
  CHECK(info.params.at("k") == 2.0);

  Rng k3(4, 3);
  const auto three = make_model("dugler_shifted", {{"d", 5.0}, {"k", 3.0}, {"gap", 2.0}}, k3);
  CHECK((three->info().eigenvalues.head(3).array() - 0.25)
            .matrix()
            .isApprox(Eigen::Vector3d(10.0 / 3, 8.0 / 3, 2)));
}

TEST_CASE("dugler_shifted: sample matrices A_i = V_k Lambda V_k^T + z_i z_i^T with E[A_i] = Sigma",
          "[models]") {
  Rng rng(4, 4);
  const auto model = make_model(
      "dugler_shifted", {{"d", 5.0}, {"lambdas", std::vector<double>{2.0, 1.0}}, {"sigma", 0.5}}, rng);
  const auto& info = model->info();
  CHECK_THROWS_MATCHES(model->sample(10, rng), InvalidArgument, MessageContains("sample matrices"));

  const auto samples = model->sample_matrices(500000, rng);
  const auto* shifted = dynamic_cast<const ShiftedVectorSamples*>(samples.get());
  REQUIRE(shifted != nullptr);
  const Eigen::MatrixXd shift =
      info.target * Eigen::Vector2d(2.0, 1.0).asDiagonal() * info.target.transpose();
  CHECK((shifted->shift() - shift).norm() < 1e-12);
  Eigen::MatrixXd A0(5, 5);
  shifted->apply(0, Eigen::MatrixXd::Identity(5, 5), A0);
  const Eigen::VectorXd z0 = shifted->vectors().col(0);
  CHECK((A0 - (shift + z0 * z0.transpose())).norm() < 1e-12);

  // E[A_i] = shift + E[z z^T] and A_i - Sigma = z z^T - sigma^2 I: check the z's moments against sigma^2 I.
  const Eigen::MatrixXd C = 0.25 * Eigen::MatrixXd::Identity(5, 5);
  CHECK((info.Sigma - (shift + C)).norm() < 1e-12);
  const Eigen::MatrixXd& Z = shifted->vectors();
  dpb::test::check_second_moment(Z, C);
  dpb::test::check_V(Z, C, info.eigenvalues[0], *info.V);
  dpb::test::check_gamma2(Z, C, info.eigenvalues[0], *info.gamma2, info.target.col(0), rng);

  // Lambda(Q) = ||E[(A - Sigma) q q^T (A - Sigma)]||_2 at a frame column q unrelated to V_k, and the tangent
  // target ||Pi E[...] Pi||_2 with Pi = I - q q^T: 2 sigma^4 and sigma^4 whatever q is. The Monte Carlo
  // estimate over 5e5 samples has relative error ~ sqrt(E w^4 / n) / E w^2 < 1% here; 3% is safe.
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(5, 1, 5).normalized();
  const Eigen::MatrixXd W = Z * (Z.transpose() * q).asDiagonal() - C * q * Eigen::RowVectorXd::Ones(Z.cols());
  const Eigen::MatrixXd H = W * W.transpose() / double(Z.cols());
  const Eigen::MatrixXd Pi = Eigen::MatrixXd::Identity(5, 5) - q * q.transpose();
  const auto top = [](const Eigen::MatrixXd& M) {
    return dpb::core::symmetric_eigenvalues(M)(4);
  };
  CHECK(top(H) == Approx(info.params.at("Lambda_Q")).epsilon(0.03));
  CHECK(top(Pi * H * Pi) == Approx(info.params.at("g_Q2")).epsilon(0.03));
}

TEST_CASE("dugler models: invalid parameters are rejected", "[models]") {
  Rng rng(4, 5);
  CHECK_THROWS_MATCHES(make_model("dugler_k1", {{"sigma2", 0.1}}, rng), InvalidArgument,
                       MessageContains("allowed: d, p, lambda1, sigma"));
  CHECK_THROWS_AS(make_model("dugler_k1", {{"lambda1", -1.0}}, rng), InvalidArgument);
  CHECK_THROWS_AS(make_model("dugler_k1", {{"sigma", 0.0}}, rng), InvalidArgument);
  CHECK_THROWS_MATCHES(make_model("dugler_shifted", {{"d", 4.0}, {"k", 5.0}}, rng), InvalidArgument,
                       MessageContains("'k' must be an integer in [1, 4]"));
  CHECK_THROWS_MATCHES(
      make_model("dugler_shifted", {{"lambdas", std::vector<double>{2.0}}, {"gap", 1.0}}, rng),
      InvalidArgument, MessageContains("not both"));
  CHECK_THROWS_MATCHES(
      make_model("dugler_shifted", {{"k", 3.0}, {"lambdas", std::vector<double>{2.0, 1.0}}}, rng),
      InvalidArgument, MessageContains("must have 3 entries"));
  CHECK_THROWS_AS(make_model("dugler_shifted", {{"gap", 0.0}}, rng), InvalidArgument);
}

TEST_CASE("dugler_rank_k: Corollary 2's X_i = V_k Lambda^{1/2} + sigma Z_i, A_i = X_i X_i^T", "[models]") {
  Rng rng(4, 5);
  // Lambda = (1.5, 1) from gap 1 at k = 2; Sigma = V Lambda V^T + k sigma^2 I with k sigma^2 = 0.5.
  const auto model = make_model("dugler_rank_k", {{"d", 4.0}, {"k", 2.0}, {"sigma", 0.5}}, rng);
  const auto& info = model->info();
  const Eigen::MatrixXd& Vk = info.target;
  REQUIRE(Vk.cols() == 2);
  CHECK((info.Sigma - (Vk * Eigen::Vector2d(1.5, 1.0).asDiagonal() * Vk.transpose() +
                       0.5 * Eigen::MatrixXd::Identity(4, 4)))
            .norm() < 1e-12);
  CHECK(info.eigenvalues == Eigen::Vector4d(2.0, 1.5, 0.5, 0.5));
  CHECK(info.params.at("gap") == 1.0);  // mu_k - mu_{k+1} = Lambda_k
  CHECK(info.params.at("lambda") == 1.5);
  CHECK(info.params.at("sigma2") == 0.25);
  CHECK_FALSE(model->gives_vectors());
  CHECK_THROWS_MATCHES(model->sample(10, rng), InvalidArgument, MessageContains("rank k"));

  // Each A_i is X_i X_i^T of its own d x k factor (rank 2): A_i Q from the factors, and E[A_i] = Sigma.
  const auto samples = model->sample_matrices(200000, rng);
  const auto* factors = dynamic_cast<const dpb::core::FactorSamples*>(samples.get());
  REQUIRE(factors != nullptr);
  const Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(4, 4);
  Eigen::MatrixXd A(4, 4), mean = Eigen::MatrixXd::Zero(4, 4);
  samples->apply(7, Q, A);
  const Eigen::MatrixXd X7 = factors->factors().middleCols(14, 2);
  CHECK((A - X7 * X7.transpose()).norm() < 1e-12);
  for (Eigen::Index i = 0; i < samples->n(); ++i) {
    samples->apply(i, Q, A);
    mean += A / double(samples->n());
  }
  // Entrywise sd of A is at most ~1.5 here, so the mean of 2e5 is within 5 sd / sqrt(2e5) ~ 0.017 of Sigma.
  CHECK((mean - info.Sigma).cwiseAbs().maxCoeff() < 0.02);
}

TEST_CASE("FactorSamples: blocks of m factors, nothing else", "[sample_matrices]") {
  CHECK_THROWS_MATCHES(dpb::core::FactorSamples(Eigen::MatrixXd::Ones(3, 5), 2), InvalidArgument,
                       MessageContains("blocks of m = 2"));
  CHECK_THROWS_AS(dpb::core::FactorSamples(Eigen::MatrixXd::Ones(3, 4), 0), InvalidArgument);
  Eigen::MatrixXd bad = Eigen::MatrixXd::Ones(3, 4);
  bad(1, 2) = std::nan("");
  CHECK_THROWS_AS(dpb::core::FactorSamples(bad, 2), InvalidArgument);
  const dpb::core::FactorSamples two(Eigen::MatrixXd::Ones(3, 4), 2);
  CHECK(two.n() == 2);
  CHECK(two.d() == 3);
}
