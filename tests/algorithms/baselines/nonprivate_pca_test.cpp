#include <catch2/catch.hpp>

#include "algorithms/baselines/nonprivate_pca.hpp"
#include "core/errors.hpp"
#include "core/sample_matrices.hpp"
#include "tests/algorithms/baselines/baseline_test_support.hpp"

namespace tb = dpb::test::baselines;
using dpb::alg::ClaimScope;

namespace {
constexpr const char* kNonprivatePca = "baseline.nonprivate_pca";
}

TEST_CASE("nonprivate_pca rejects invalid input", "[baselines]") {
  const Eigen::MatrixXd X = Eigen::MatrixXd::Random(4, 10);
  CHECK_THROWS_AS(tb::run(kNonprivatePca, {}, tb::input(X, 0, 1, 0.1), 1), dpb::InvalidArgument);
  CHECK_THROWS_AS(tb::run(kNonprivatePca, {}, tb::input(X, 5, 1, 0.1), 1), dpb::InvalidArgument);
  Eigen::MatrixXd bad = X;
  bad(2, 3) = std::nan("");
  CHECK_THROWS_WITH(tb::run(kNonprivatePca, {}, tb::input(bad, 1, 1, 0.1), 1), Catch::Contains("finite"));
  dpb::alg::Input none;
  CHECK_THROWS_WITH(tb::run(kNonprivatePca, {}, none, 1), Catch::Contains("needs vector data"));
}

TEST_CASE("nonprivate_pca recovers a known top subspace with exact eigenvalues", "[baselines]") {
  // Columns +-3 e1, +-2 e2, +-1 e3 (two of each): (1/n) X X^T = diag(9, 4, 1, 0) / 3 exactly.
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(4, 6);
  X(0, 0) = 3, X(0, 1) = -3, X(1, 2) = 2, X(1, 3) = -2, X(2, 4) = 1, X(2, 5) = -1;
  const auto e = tb::run(kNonprivatePca, {}, tb::input(X, 2, 1, 0.1), 1);
  Eigen::MatrixXd target = Eigen::MatrixXd::Zero(4, 2);
  target(0, 0) = target(1, 1) = 1;
  CHECK(dpb::core::projector_distance(*e.Q, target, {dpb::core::Norm::fro}) < 1e-12);
  CHECK(e.eigenvalues->isApprox(Eigen::Vector2d(3.0, 4.0 / 3.0), 1e-12));
}

TEST_CASE("nonprivate_pca reads shifted sample matrices C + x x^T", "[baselines]") {
  const Eigen::MatrixXd W = Eigen::MatrixXd::Identity(3, 1);
  const Eigen::MatrixXd Z = Eigen::MatrixXd::Random(3, 8);
  dpb::core::ShiftedVectorSamples samples(W, Eigen::VectorXd::Constant(1, 2.0), Z);
  dpb::alg::Input in;
  in.samples = &samples;
  in.k = 3;
  const auto e = tb::run(kNonprivatePca, {}, in, 1);
  const Eigen::MatrixXd expected = samples.shift() + Z * Z.transpose() / 8.0;
  CHECK(e.Sigma->isApprox(expected, 1e-12));
}

TEST_CASE("nonprivate_pca is deterministic and says it is not private", "[baselines]") {
  const auto s = tb::spiked(10, 2, 5.0, 500, 3);
  const auto a = tb::run(kNonprivatePca, {}, tb::input(s.X, 2, 1, 0.1), 1);
  const auto b = tb::run(kNonprivatePca, {}, tb::input(s.X, 2, 1, 0.1), 99);  // no randomness: any seed
  CHECK(*a.Q == *b.Q);
  CHECK(a.claim.scope == ClaimScope::not_private);
  CHECK(describe(a.claim).find("NOT differentially private") != std::string::npos);
  CHECK(dpb::alg::algorithm_registry().find(kNonprivatePca).privacy.find("NOT differentially private") !=
        std::string::npos);
}

TEST_CASE("nonprivate_pca error shrinks with n", "[baselines]") {
  // Non-private rate sqrt(d/n): 16x the samples cuts the error ~4x; 0.5 leaves room for 4-trial noise.
  CHECK(tb::mean_error(kNonprivatePca, {}, 16000, 4) < 0.5 * tb::mean_error(kNonprivatePca, {}, 1000, 4));
}
