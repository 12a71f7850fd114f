#include "algorithms/mechanisms/laplace.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "support/statistics.hpp"

using namespace dpb::alg;

namespace {

// Every statistical check runs at level 1e-6 (DKW for KS, 6 standard errors for means), so a correct
// sampler fails for at most a 1e-6 fraction of seeds: a failure means a wrong distribution.
constexpr double kLaplaceAlpha = 1e-6;
constexpr std::size_t kDraws = 200000;

// CDF of BoundedLaplace(lambda, tau) (kumar2025 §1.3), integrated from its density:
// for -tau <= x <= 0, F(x) = (e^{x/lambda} - e^{-tau/lambda}) / (2 (1 - e^{-tau/lambda})); symmetric.
double bounded_laplace_cdf(double x, double lambda, double tau) {
  if (x <= -tau) return 0;
  if (x >= tau) return 1;
  const double lower =
      (std::exp(-std::abs(x) / lambda) - std::exp(-tau / lambda)) / (2 * (1 - std::exp(-tau / lambda)));
  return x <= 0 ? lower : 1 - lower;
}

}  // namespace

TEST_CASE("laplace_scale is Delta / eps and validates", "[mechanisms]") {
  CHECK(laplace_scale(2.0, 0.5) == 4.0);
  CHECK(laplace_scale(3.0, 1.5) == 2.0);
  CHECK_THROWS_AS(laplace_scale(0.0, 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(laplace_scale(1.0, 0.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(laplace_scale(1.0, -1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(laplace_scale(std::nan(""), 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(laplace_scale(1.0, std::numeric_limits<double>::infinity()), dpb::InvalidArgument);
}

TEST_CASE("laplace_mechanism adds Lap(Delta/eps) noise and records its release", "[mechanisms]") {
  const double b = laplace_scale(2.0, 0.5), start = -1.0;
  dpb::core::Rng rng(11, dpb::core::hash_name("laplace noise"));
  Ledger ledger;
  const LedgerEntry entry = laplace_entry("count", 2.0, b, {0.5, 0, Neighbours::replace});
  std::vector<double> noise, magnitude;
  for (std::size_t i = 0; i < kDraws; ++i) noise.push_back(laplace_mechanism(start, entry, ledger, rng));
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries().front().uses == static_cast<std::int64_t>(kDraws));
  for (double& x : noise) magnitude.push_back(std::abs(x -= start));
  // |X| ~ Exp(mean b, sd b): the mean of |X| is b within 6 b / sqrt(n) (a 2% scale error is 9
  // standard errors at n = 2e5).
  CHECK(std::abs(dpb::test::mean(magnitude) - b) <= 6 * b / std::sqrt(static_cast<double>(kDraws)));
  const auto laplace_cdf = [&](double x) {
    return x < 0 ? 0.5 * std::exp(x / b) : 1 - 0.5 * std::exp(-x / b);
  };
  CHECK(dpb::test::ks_statistic(noise, laplace_cdf) <= dpb::test::ks_critical(kDraws, kLaplaceAlpha));

  LedgerEntry bad = entry;
  bad.noise_scale = 0;
  CHECK_THROWS_AS(laplace_mechanism(0, bad, ledger, rng), dpb::InvalidArgument);
  bad.noise_scale = std::nan("");
  CHECK_THROWS_AS(laplace_mechanism(0, bad, ledger, rng), dpb::InvalidArgument);
}

TEST_CASE("laplace_mechanism on a vector adds the scalar mechanism's draws to every coordinate", "[mechanisms]") {
  const LedgerEntry entry = laplace_entry("clipped mean", 0.2, 0.4, {0.5, 0, Neighbours::replace});
  Eigen::VectorXd value(3);
  value << 1, -2, 3;
  Ledger ledger, scalar_ledger;
  dpb::core::Rng rng(5, dpb::core::hash_name("vector laplace")), scalar_rng = rng;
  const Eigen::VectorXd start = value;
  laplace_mechanism(value, entry, ledger, rng);
  // One release of the whole vector, charged once; the noise is the scalar mechanism's, coordinate by coordinate.
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries().front().uses == 1);
  for (Eigen::Index i = 0; i < 3; ++i)
    CHECK(value(i) == laplace_mechanism(start(i), entry, scalar_ledger, scalar_rng));
  CHECK((value - start).cwiseAbs().minCoeff() > 0);

  LedgerEntry gaussian = entry;
  gaussian.mechanism = Mechanism::gaussian;
  CHECK_THROWS_AS(laplace_mechanism(value, gaussian, ledger, rng), dpb::InvalidArgument);
}

TEST_CASE("bounded_laplace samples Lap(lambda) conditioned on |X| <= tau", "[mechanisms]") {
  // Heavy truncation (tau << lambda, nearly uniform), moderate (P(|Lap| <= tau) = 0.78) and light
  // (essentially Laplace). A clipped instead of conditioned Laplace puts atoms at +-tau and fails KS.
  for (const auto& [lambda, tau] : {std::pair{10.0, 1.0}, std::pair{2.0, 3.0}, std::pair{0.1, 5.0}}) {
    CAPTURE(lambda, tau);
    dpb::core::Rng rng(13, dpb::core::hash_name("bounded laplace"));
    std::vector<double> x(kDraws);
    for (double& v : x) v = bounded_laplace(rng, lambda, tau);
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    CHECK(*lo >= -tau);
    CHECK(*hi <= tau);
    CHECK(dpb::test::ks_statistic(x, [&](double t) { return bounded_laplace_cdf(t, lambda, tau); }) <=
          dpb::test::ks_critical(kDraws, kLaplaceAlpha));
  }
  dpb::core::Rng rng(1, 1);
  CHECK_THROWS_AS(bounded_laplace(rng, 0.0, 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(bounded_laplace(rng, 1.0, 0.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(bounded_laplace(rng, 1.0, std::numeric_limits<double>::infinity()), dpb::InvalidArgument);
}

TEST_CASE("bounded_laplace_min_tau is (Delta/eps) log(4/delta) (kumar2025 Fact 2)", "[mechanisms]") {
  // By hand: (2 / 0.5) log(4 / 1e-3) = 4 log(4000) = 4 * 8.29404964 = 33.1761986.
  CHECK(bounded_laplace_min_tau(2.0, 0.5, 1e-3) == Approx(33.1761986).epsilon(1e-8));
  CHECK(bounded_laplace_min_tau(1.0, 1.0, 4.0 * std::exp(-2.0)) == Approx(2.0).epsilon(1e-15));
  CHECK_THROWS_AS(bounded_laplace_min_tau(1.0, 1.0, 0.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(bounded_laplace_min_tau(1.0, 1.0, 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(bounded_laplace_min_tau(1.0, 0.0, 0.1), dpb::InvalidArgument);
  CHECK_THROWS_AS(bounded_laplace_min_tau(-1.0, 1.0, 0.1), dpb::InvalidArgument);
}
