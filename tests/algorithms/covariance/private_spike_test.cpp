#include "algorithms/covariance/private_spike.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/covariance/private_noise_variance.hpp"
#include "algorithms/covariance/spiked_fixture.hpp"
#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "support/statistics.hpp"

namespace {

using Catch::Matchers::Contains;
using dpb::alg::algorithm_registry;

constexpr const char* kPrivateSpike = "cai2024.private_spike";

dpb::alg::Estimate run_private_spike(const dpb::alg::Input& in, const dpb::core::ParamMap& params,
                                     std::uint64_t seed) {
  dpb::core::Rng rng(seed, 6);
  return algorithm_registry().make(kPrivateSpike, params)->run(in, rng);
}

}  // namespace

TEST_CASE("cai2024 private spike known answer: mean of the top r eigenvalues minus sigma^2", "[cai2024]") {
  dpb::core::Rng rng(1, 1);
  dpb::alg::Ledger ledger;
  const auto noiseless = dpb::alg::gaussian_entry("eigenvalues", 1.0, 0.0, {0.5, 0.1});
  const Eigen::VectorXd eig = (Eigen::VectorXd(4) << 12, 10, 8, 1).finished();
  CHECK(dpb::alg::private_spike(eig, 3, 1.0, noiseless, ledger, rng).value == Approx(9.0));
  CHECK(dpb::alg::private_spike(eig, 3, 0.0, noiseless, ledger, rng).value == Approx(10.0));  // literal (A8)
  CHECK_THROWS_AS(dpb::alg::private_spike(eig, 5, 0.0, noiseless, ledger, rng), dpb::InvalidArgument);
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries()[0].uses == 2);
}

TEST_CASE("cai2024.private_spike: noise scale over seeds and accuracy on model data", "[cai2024]") {
  // n = 20000, p = 50, r = 3, lambda = 20: Delta2 = 3 (20 (3 + log n) + (50 + log n))/n ~ 0.047, noise sd
  // per eigenvalue ~0.1 at (0.9, 0.1). With the data fixed, lambdatil varies only by the noise: its
  // variance over 1000 seeds is sd^2 / r (5-sd tolerance on a sample variance).
  const auto data = dpb::test::spiked_data(20000, 50, 3, 20.0, 1.0, 90);
  const double n = 20000, p = 50, r = 3, l = 20, eps = 0.9, delta = 0.1;
  const double D2 = 3 * (l * (r + std::log(n)) + (p + std::log(n))) / n;
  const double sd = D2 * std::sqrt(2 * std::log(1.25 / delta)) / eps;
  const auto est = run_private_spike(data.input(eps, delta), {}, 0);
  CHECK(est.diagnostics.counters.at("Delta2") == Approx(D2).epsilon(1e-12));
  CHECK(est.diagnostics.counters.at("noise_sd") == Approx(sd).epsilon(1e-12));
  // One release in the ledger: the r top eigenvalues with sensitivity Delta2, the whole budget.
  REQUIRE(est.ledger.entries().size() == 1);
  const auto& entry = est.ledger.entries()[0];
  CHECK(entry.sensitivity == Approx(D2).epsilon(1e-12));
  CHECK(entry.noise_scale == Approx(sd).epsilon(1e-12));
  CHECK(entry.calibrated_for.epsilon == eps);
  CHECK_NOTHROW(dpb::alg::check_claim(est.ledger, est.claim, kPrivateSpike));
  REQUIRE(est.eigenvalues);
  CHECK(est.eigenvalues->size() == 3);
  CHECK((*est.eigenvalues)[0] >= (*est.eigenvalues)[2]);
  const Eigen::VectorXd eig = dpb::core::descending_eigenvalues(dpb::core::second_moment(data.X));
  const double nonprivate = eig.head(3).mean() - 1.0;
  std::vector<double> values;
  for (std::uint64_t seed = 0; seed < 1000; ++seed) {
    dpb::core::Rng rng(seed, 0);
    dpb::alg::Ledger ledger;
    values.push_back(dpb::alg::private_spike(eig, 3, 1.0, entry, ledger, rng).value);
  }
  CHECK(std::abs(dpb::test::variance(values) / (sd * sd / r) - 1) < 5 * std::sqrt(2.0 / 999));
  CHECK(std::abs(dpb::test::mean(values) - nonprivate) < 5 * sd / std::sqrt(r * 1000));
  // Accuracy: the sample spikes fluctuate by (lambda + 1) sqrt(2/n) ~ 0.2 each (mean of 3: ~0.12) and
  // sit ~(lambda + 1) p/(n lambda) ~ 0.003 high; noise adds sd/sqrt(3) ~ 0.06. 5 sds: within 0.7.
  CHECK(*est.scalar == Approx(20.0).margin(0.7));
}

TEST_CASE("cai2024.private_spike: validation, determinism, public bound, claim", "[cai2024]") {
  const auto data = dpb::test::spiked_data(500, 20, 2, 10.0, 1.0, 91);
  const auto in = data.input(0.5, 0.1);
  CHECK(run_private_spike(in, {}, 2).scalar == run_private_spike(in, {}, 2).scalar);
  CHECK(run_private_spike(in, {}, 2).scalar != run_private_spike(in, {}, 3).scalar);
  // A public bound replaces the oracle lambda in Delta2.
  const auto bounded = run_private_spike(in, {{"lambda_bound", 50.0}}, 2);
  CHECK(bounded.diagnostics.counters.at("Delta2") ==
        Approx(3 * (50 * (2 + std::log(500.0)) + (20 + std::log(500.0))) / 500).epsilon(1e-12));
  auto user = in;
  user.oracle = nullptr;
  CHECK_THROWS_WITH(run_private_spike(user, {}, 1), Contains("'lambda'"));
  CHECK_NOTHROW(run_private_spike(user, {{"lambda_bound", 50.0}, {"sigma2", 1.0}}, 1));
  auto bad = in;
  bad.k = 11;
  CHECK_THROWS_WITH(run_private_spike(bad, {}, 1), Contains("2r <= p"));
  CHECK_THROWS_WITH(algorithm_registry().resolve(kPrivateSpike, {{"subtract_sigma2", std::string("yes")}}),
                    Contains("on, off"));
  const auto est = run_private_spike(in, {}, 1);
  CHECK(est.claim.scope == dpb::alg::ClaimScope::under_model_assumptions);
  CHECK_THAT(algorithm_registry().find(kPrivateSpike).privacy, Contains("ONLY UNDER THE MODEL"));
}
