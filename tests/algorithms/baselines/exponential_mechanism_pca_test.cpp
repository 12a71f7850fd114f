#include <catch2/catch.hpp>

#include "algorithms/baselines/exponential_mechanism_pca.hpp"
#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "tests/algorithms/baselines/baseline_test_support.hpp"

namespace tb = dpb::test::baselines;
namespace base = dpb::alg::baselines;

namespace {
constexpr const char* kExpMechPca = "baseline.exponential_mechanism_pca";
}

TEST_CASE(
    "exponential_mechanism_pca: the score matrix is the clipped sum, inverse temperature eps/(2 beta^2)",
    "[baselines]") {
  const Eigen::MatrixXd X = tb::hand_vectors();  // ||x||^2 = 2, 9, 4, 0, 3
  const dpb::alg::Input in = tb::input(X, 1, 0.5, 0);
  dpb::alg::Diagnostics diagnostics;
  const Eigen::MatrixXd S_clipped =
      base::exponential_mechanism_scores(base::PsdSamples::from(in, kExpMechPca), 2.0, diagnostics);
  CHECK(base::exponential_mechanism_inverse_temperature(2.0, 0.5) == 0.5 / (2 * 4.0));
  // beta = 2 clips only x_1 (norm 3) to norm 2: weight 4/9.
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(4, 4);
  for (Eigen::Index i = 0; i < X.cols(); ++i)
    S += (i == 1 ? 4.0 / 9.0 : 1.0) * X.col(i) * X.col(i).transpose();
  CHECK(S_clipped.isApprox(S));
  CHECK(diagnostics.counters.at("clipped") == 1);
}

TEST_CASE("exponential_mechanism_pca claims pure eps-DP and validates its input", "[baselines]") {
  const auto s = tb::spiked(6, 1, 5.0, 400, 3);
  const auto e = tb::run(kExpMechPca, {{"beta", 4.0}}, tb::input(s.X, 1, 0.7, 1e-5), 5);
  CHECK(e.claim.epsilon == 0.7);
  CHECK(e.claim.delta == 0);  // pure DP whatever delta it was handed
  CHECK(e.claim.scope == dpb::alg::ClaimScope::worst_case);
  // One exponential-mechanism draw: score sensitivity beta^2 in the spectral norm, temperature
  // 2 beta^2 / eps, so the accountant charges exactly (eps, 0).
  REQUIRE(e.ledger.entries().size() == 1);
  const auto& entry = e.ledger.entries()[0];
  CHECK(entry.mechanism == dpb::alg::Mechanism::exponential);
  CHECK(entry.norm == dpb::alg::SensitivityNorm::spectral);
  CHECK(entry.sensitivity == 16.0);
  CHECK(entry.noise_scale == Approx(2 * 16.0 / 0.7));
  const auto spent = dpb::alg::account(e.ledger, 0, dpb::alg::Neighbours::replace);
  CHECK(spent.epsilon == Approx(0.7));
  CHECK(spent.delta == 0);
  REQUIRE(e.Q);
  CHECK(e.Q->norm() == Approx(1.0));
  // Determinism for a seed.
  CHECK(tb::run(kExpMechPca, {{"beta", 4.0}}, tb::input(s.X, 1, 0.7, 1e-5), 5).Q->isApprox(*e.Q));
  CHECK_THROWS_WITH(tb::run(kExpMechPca, {}, tb::input(s.X, 1, 0.7, 0), 5), Catch::Contains("beta"));
  CHECK_THROWS_WITH(tb::run(kExpMechPca, {{"beta", 4.0}}, tb::input(s.X, 2, 0.7, 0), 5),
                    Catch::Contains("k = 1"));
  CHECK_THROWS_AS(tb::run(kExpMechPca, {{"beta", 4.0}}, tb::input(s.X, 1, 0, 0), 5), dpb::InvalidArgument);
}

TEST_CASE("exponential_mechanism_pca concentrates on v1 as eps n grows", "[baselines]") {
  // The exponent's gap is eps n lambda / (2 beta^2); its error sin^2 ~ (d - 1) beta^2 / (eps n lambda)
  // shrinks as 1/n (plus the sampling error d/n): 20 seeds at n = 400 against n = 6400.
  auto mean_sin = [](long n) {
    double sum = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const auto s = tb::spiked(6, 1, 5.0, n, seed);
      const auto e = tb::run(kExpMechPca, {{"beta", 5.0}}, tb::input(s.X, 1, 1.0, 0), seed);
      sum += dpb::core::sin_angle(e.Q->col(0), s.info().target.col(0));
    }
    return sum / 20;
  };
  const double small = mean_sin(400), large = mean_sin(6400);
  INFO("mean sin at n = 400: " << small << ", at n = 6400: " << large);
  CHECK(large < 0.5 * small);  // 1/sqrt(n) scaling predicts 1/4
}
