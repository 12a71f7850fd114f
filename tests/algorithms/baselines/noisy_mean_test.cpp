#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/ledger.hpp"
#include "core/errors.hpp"
#include "support/statistics.hpp"
#include "tests/algorithms/baselines/baseline_test_support.hpp"

namespace tb = dpb::test::baselines;
using dpb::alg::Neighbours;

namespace {

constexpr const char* kGaussian = "baseline.gaussian_mean";
constexpr const char* kLaplace = "baseline.laplace_mean";

// Keeps what the run's one mechanism saw (the pre-noise mean) and released.
struct SeenRelease final : dpb::alg::LedgerProbe {
  void observe(const dpb::alg::LedgerEntry&, const std::vector<double>& s, const std::vector<std::int64_t>&,
               std::vector<double>& release, dpb::alg::ProbedRelease) override {
    statistic = s;
    released = release;
  }
  std::vector<double> statistic, released;
};

dpb::alg::Estimate observed_run(const char* id, const dpb::core::ParamMap& params, const dpb::alg::Input& in,
                                std::uint64_t seed, SeenRelease& seen) {
  const dpb::alg::ScopedProbe scope(seen);
  return tb::run(id, params, in, seed);
}

// hand_vectors() clipped to radius 2: in l2 only x_1 = (-3, 0, 0, 0) moves (to (-2, 0, 0, 0)); in l1 also
// x_2 (l1 norm 4, halved) and x_4 (l1 norm 3, scaled by 2/3).
Eigen::VectorXd hand_mean(bool l1) {
  const Eigen::MatrixXd X = tb::hand_vectors();
  Eigen::VectorXd sum = X.col(0) + Eigen::Vector4d(-2, 0, 0, 0) + X.col(3);
  sum += l1 ? Eigen::VectorXd(X.col(2) / 2 + X.col(4) * 2 / 3) : Eigen::VectorXd(X.col(2) + X.col(4));
  return sum / 5;
}

// Standard-normal (or Laplace) noise of many runs, each coordinate divided by the entry's scale.
std::vector<double> scaled_noise(const char* id, const dpb::core::ParamMap& params, const dpb::alg::Input& in) {
  std::vector<double> noise;
  for (std::uint64_t seed = 0; seed < 5000; ++seed) {
    SeenRelease seen;
    const auto e = observed_run(id, params, in, seed, seen);
    const double scale = e.ledger.entries().at(0).noise_scale;
    for (std::size_t i = 0; i < seen.statistic.size(); ++i)
      noise.push_back((seen.released[i] - seen.statistic[i]) / scale);
  }
  return noise;
}

}  // namespace

TEST_CASE("gaussian_mean releases the l2-clipped mean plus noise calibrated for 2C/n", "[baselines]") {
  const Eigen::MatrixXd X = tb::hand_vectors();
  const dpb::core::ParamMap params{{"clip_radius", 2.0}};
  SeenRelease seen;
  const auto e = observed_run(kGaussian, params, tb::input(X, 1, 0.5, 1e-5), 3, seen);
  const Eigen::VectorXd expected = hand_mean(false);
  REQUIRE(seen.statistic.size() == 4);
  for (Eigen::Index i = 0; i < 4; ++i) CHECK(seen.statistic[std::size_t(i)] == Approx(expected(i)).margin(1e-15));
  REQUIRE(e.mean);
  for (Eigen::Index i = 0; i < 4; ++i) CHECK((*e.mean)(i) == seen.released[std::size_t(i)]);
  // Replace-one: 2C/n = 0.8 in l2; the analytic sd for it, so the accountant spends exactly the budget asked.
  REQUIRE(e.ledger.entries().size() == 1);
  const auto& entry = e.ledger.entries()[0];
  CHECK(entry.mechanism == dpb::alg::Mechanism::gaussian);
  CHECK(entry.sensitivity == Approx(0.8));
  CHECK(entry.noise_scale == Approx(dpb::alg::analytic_gaussian_sigma(0.8, 0.5, 1e-5)));
  CHECK(e.claim.epsilon == 0.5);
  CHECK(e.claim.delta == 1e-5);
  CHECK(dpb::alg::account(e.ledger, 1e-5, Neighbours::replace).epsilon == Approx(0.5));
  // Add/remove: C/n; the classical calibration as printed.
  const auto added = tb::run(kGaussian, {{"clip_radius", 2.0}, {"calibration", std::string("classical")}},
                             tb::input(X, 1, 0.5, 1e-5, nullptr, Neighbours::add_remove), 3);
  CHECK(added.ledger.entries()[0].sensitivity == Approx(0.4));
  CHECK(added.ledger.entries()[0].noise_scale == Approx(dpb::alg::classical_gaussian_sigma(0.4, 0.5, 1e-5)));
  // Every Gaussian mechanism needs delta > 0; the clip radius must be positive.
  CHECK_THROWS_WITH(tb::run(kGaussian, params, tb::input(X, 1, 0.5, 0), 3), Catch::Contains("delta"));
  CHECK_THROWS_AS(tb::run(kGaussian, {{"clip_radius", 0.0}}, tb::input(X, 1, 0.5, 1e-5), 3), dpb::InvalidArgument);
}

TEST_CASE("laplace_mean releases the l1-clipped mean plus Lap(2C/(n eps)) and claims pure DP", "[baselines]") {
  const Eigen::MatrixXd X = tb::hand_vectors();
  const dpb::core::ParamMap params{{"clip_radius", 2.0}};
  SeenRelease seen;
  const auto e = observed_run(kLaplace, params, tb::input(X, 1, 0.5, 1e-5), 3, seen);
  const Eigen::VectorXd expected = hand_mean(true);
  REQUIRE(seen.statistic.size() == 4);
  for (Eigen::Index i = 0; i < 4; ++i) CHECK(seen.statistic[std::size_t(i)] == Approx(expected(i)).margin(1e-15));
  REQUIRE(e.ledger.entries().size() == 1);
  const auto& entry = e.ledger.entries()[0];
  CHECK(entry.mechanism == dpb::alg::Mechanism::laplace);
  CHECK(entry.norm == dpb::alg::SensitivityNorm::l1);
  CHECK(entry.sensitivity == Approx(0.8));
  CHECK(entry.noise_scale == Approx(0.8 / 0.5));
  CHECK(e.claim.epsilon == Approx(0.5));
  CHECK(e.claim.delta == 0);  // pure DP whatever delta it was handed
  const auto spent = dpb::alg::account(e.ledger, 0, Neighbours::replace);
  CHECK(spent.epsilon == Approx(0.5));
  CHECK(spent.delta == 0);
}

TEST_CASE("the plain means' claims need the records: their sensitivity is 2C/n", "[baselines]") {
  // Without the records there is no n to divide by: a clean error, not a claim for n = 1.
  dpb::alg::Input none;
  none.privacy = {0.5, 1e-5, Neighbours::replace};
  for (const char* id : {kGaussian, kLaplace}) {
    INFO(id);
    CHECK_THROWS_WITH(dpb::alg::algorithm_registry().make(id, {})->claim(none), Catch::Contains("needs the records"));
  }
}

TEST_CASE("the noise the plain mechanisms draw has the scale their ledger entries record", "[baselines]") {
  // 2e4 scaled draws each (5000 runs x d = 4): a KS test at alpha = 1e-3 (critical distance 0.0138) rejects a
  // 10% scale error (the KS distance of N(0, 1.1^2) from N(0, 1) is 0.022) with overwhelming probability, and
  // noise x0.7 (distance 0.08) always.
  const Eigen::MatrixXd X = tb::hand_vectors();
  const auto gaussian = scaled_noise(kGaussian, {{"clip_radius", 2.0}}, tb::input(X, 1, 0.5, 1e-5));
  CHECK(dpb::test::ks_statistic(gaussian, dpb::test::normal_cdf) <= dpb::test::ks_critical(gaussian.size(), 1e-3));
  const auto laplace = scaled_noise(kLaplace, {{"clip_radius", 2.0}}, tb::input(X, 1, 0.5, 0));
  const auto laplace_cdf = [](double x) { return x < 0 ? 0.5 * std::exp(x) : 1 - 0.5 * std::exp(-x); };
  CHECK(dpb::test::ks_statistic(laplace, laplace_cdf) <= dpb::test::ks_critical(laplace.size(), 1e-3));
}
