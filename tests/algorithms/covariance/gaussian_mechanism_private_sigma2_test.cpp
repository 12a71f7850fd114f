#include "algorithms/covariance/gaussian_mechanism_private_sigma2.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/covariance/spiked_fixture.hpp"
#include "algorithms/covariance/spiked_sensitivities.hpp"
#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/metrics.hpp"

namespace {

using Catch::Matchers::Contains;
using dpb::alg::algorithm_registry;

constexpr const char* kPrivateSigma2 = "cai2024.gaussian_mechanism_private_sigma2";

dpb::alg::Estimate run_private_sigma2(const dpb::alg::Input& in, const dpb::core::ParamMap& params,
                                      std::uint64_t seed) {
  dpb::core::Rng rng(seed, 9);
  return algorithm_registry().make(kPrivateSigma2, params)->run(in, rng);
}

}  // namespace

TEST_CASE("cai2024.gaussian_mechanism_private_sigma2: budget in thirds and sigmatil^2 plugged in (spec A6)",
          "[cai2024]") {
  const auto data = dpb::test::spiked_data(2000, 40, 2, 10.0, 1.0, 50);
  const double eps = 1.5, delta = 0.1, n = 2000, p = 40, r = 2, l = 10;
  const auto est = run_private_sigma2(data.input(eps, delta), {}, 1);
  REQUIRE(est.scalar);
  const double s2 = *est.scalar;  // sigmatil^2
  const auto& c = est.diagnostics.counters;
  // Delta1, Delta2 use sigmatil^2; each release has variance 18 Delta^2 log(3.75/delta)/eps^2.
  const double D1 = 4 * (s2 / l + std::sqrt(s2 / l)) * std::sqrt(p * (r + std::log(n))) / n;
  const double D2 = 3 * (l * (r + std::log(n)) + s2 * (p + std::log(n))) / n;
  const double D3 =
      6 / std::sqrt(p) * (l * (r + std::log(n)) + 1.0 * (p + std::log(n))) / n;  // oracle sigma^2 = 1
  CHECK(c.at("Delta1") == Approx(D1).epsilon(1e-12));
  CHECK(c.at("Delta2") == Approx(D2).epsilon(1e-12));
  CHECK(c.at("Delta3") == Approx(D3).epsilon(1e-12));
  const double k = std::sqrt(18 * std::log(3.75 / delta)) / eps;
  CHECK(c.at("projector_noise_sd") == Approx(k * D1).epsilon(1e-12));
  CHECK(c.at("eigenvalue_noise_sd") == Approx(k * D2).epsilon(1e-12));
  CHECK(c.at("sigma2_noise_sd") == Approx(k * D3).epsilon(1e-12));
  // The ledger: sigmatil^2 (Delta3), Util (Delta1), Lamtil (Delta2), each calibrated for (eps/3, delta/3).
  const auto& ledger = est.ledger.entries();
  REQUIRE(ledger.size() == 3);
  CHECK(ledger[0].sensitivity == c.at("Delta3"));
  CHECK(ledger[1].sensitivity == c.at("Delta1"));
  CHECK(ledger[2].sensitivity == c.at("Delta2"));
  for (const auto& step : ledger) {
    CHECK(step.calibrated_for.epsilon == Approx(eps / 3));
    CHECK(step.calibrated_for.delta == Approx(delta / 3));
  }
  CHECK_NOTHROW(dpb::alg::check_claim(est.ledger, est.claim, kPrivateSigma2));
  CHECK(est.claim.epsilon == eps);
  CHECK(est.claim.scope == dpb::alg::ClaimScope::under_model_assumptions);
  // Steps 3-4 use sigmatil^2: Sigmatil - sigmatil^2 I has rank r, so p - r eigenvalues equal sigmatil^2.
  const dpb::core::EigenPairs eig = dpb::core::symmetric_eigenpairs(*est.Sigma);
  for (Eigen::Index j = 0; j < 40 - 2; ++j) CHECK(eig.values[j] == Approx(s2).epsilon(1e-9));

  // Inflated plug-in and the faithful (literal) split.
  const auto inflated = run_private_sigma2(data.input(eps, delta), {{"sigma2_inflation", 10.0 / 9.0}}, 1);
  CHECK(*inflated.scalar == s2);  // same seed, same sigmatil^2 (drawn first)
  const double s2i = 10.0 / 9.0 * s2;
  CHECK(inflated.diagnostics.counters.at("Delta1") ==
        Approx(4 * (s2i / l + std::sqrt(s2i / l)) * std::sqrt(p * (r + std::log(n))) / n).epsilon(1e-12));
  const auto faithful =
      run_private_sigma2(data.input(eps, delta), {{"budget_split", std::string("faithful")}}, 1);
  CHECK(faithful.diagnostics.counters.at("projector_noise_sd") ==
        Approx(D1 * std::sqrt(2 * std::log(1.25 / (delta / 6))) / (eps / 6)).epsilon(1e-12));
  CHECK(faithful.claim.epsilon == Approx(2 * eps / 3));
  CHECK(faithful.claim.delta == Approx(2 * delta / 3));
  CHECK(faithful.ledger.entries().at(1).calibrated_for.epsilon == Approx(eps / 6));
  CHECK_NOTHROW(dpb::alg::check_claim(faithful.ledger, faithful.claim, kPrivateSigma2));
}

TEST_CASE("cai2024.gaussian_mechanism_private_sigma2: validation, determinism, utility at large n",
          "[cai2024]") {
  const auto data = dpb::test::spiked_data(300, 20, 2, 10.0, 1.0, 51);
  const auto ok = data.input(1.0, 0.1);
  CHECK(*run_private_sigma2(ok, {}, 2).Sigma == *run_private_sigma2(ok, {}, 2).Sigma);
  CHECK(*run_private_sigma2(ok, {}, 2).Sigma != *run_private_sigma2(ok, {}, 3).Sigma);
  auto in = ok;
  in.privacy.epsilon = 3.0;  // (1, delta/3) per release: classical unproven
  CHECK_THROWS_WITH(run_private_sigma2(in, {}, 1), Contains("calibration=analytic"));
  in = ok;
  in.k = 11;
  CHECK_THROWS_WITH(run_private_sigma2(in, {}, 1), Contains("2r <= p"));
  CHECK_THROWS_WITH(algorithm_registry().resolve(kPrivateSigma2, {{"sigma2_inflation", 0.5}}),
                    Contains("must lie in"));
  CHECK_THROWS_WITH(algorithm_registry().resolve(kPrivateSigma2, {{"budget_split", std::string("halves")}}),
                    Contains("thirds, faithful"));
  CHECK_THAT(algorithm_registry().find(kPrivateSigma2).privacy,
             Contains("ONLY UNDER THE MODEL") && Contains("thirds"));
  // Utility at n = 20000, p = 50: sigmatil^2 is within 5 noise sds (~0.1 each) plus 0.02 (the
  // non-private error, ~0.005 at this size) of sigma^2 = 1, and Util is close to U (||Z|| ~ 0.15, gap 20).
  const auto big = dpb::test::spiked_data(20000, 50, 2, 20.0, 1.0, 52);
  const auto est = run_private_sigma2(big.input(1.0, 0.1), {}, 5);
  CHECK(std::abs(*est.scalar - 1.0) < 5 * est.diagnostics.counters.at("sigma2_noise_sd") + 0.02);
  CHECK(dpb::core::projector_distance(*est.Q, big.model->info().target, {}) < 0.5);
}
