#include <catch2/catch.hpp>

#include "algorithms/baselines/analyze_gauss.hpp"
#include "algorithms/baselines/dp_gauss_2.hpp"
#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "tests/algorithms/baselines/baseline_test_support.hpp"
#include "tests/support/statistics.hpp"

namespace tb = dpb::test::baselines;
namespace base = dpb::alg::baselines;
using dpb::alg::ClaimScope;
using dpb::alg::Neighbours;

namespace {
constexpr const char* kDpGauss2 = "baseline.dp_gauss_2";

// k-th eigengap of X X^T / beta^2 (no sample exceeds beta in the data used below).
double normalized_gap(const Eigen::MatrixXd& X, double beta, Eigen::Index k) {
  const auto top = dpb::core::top_eigenpairs(X * X.transpose() / (beta * beta), k + 1);
  return top.values[k - 1] - top.values[k];
}
}  // namespace

TEST_CASE("dp_gauss_2 rejects invalid input", "[baselines]") {
  const auto s = tb::spiked(5, 1, 5.0, 50, 1);
  const dpb::core::ParamMap beta{{"beta", 20.0}};
  CHECK_THROWS_WITH(tb::run(kDpGauss2, beta, tb::input(s.X, 5, 1, 0.1), 1), Catch::Contains("k < d"));
  CHECK_THROWS_AS(tb::run(kDpGauss2, beta, tb::input(s.X, 1, 1, 0.0), 1), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::alg::algorithm_registry().make(kDpGauss2, {{"gap_budget_fraction", 1.0}}),
                  dpb::InvalidArgument);
}

TEST_CASE("projector_sensitivity is Davis–Kahan capped by sqrt(2k)", "[baselines]") {
  // replace: ||D||_F <= sqrt 2, k = 1: 2 sqrt2 min(1, sqrt2)/gap = 2 sqrt2/gap.
  CHECK(base::projector_sensitivity(100.0, 1, Neighbours::replace) == Approx(2 * std::sqrt(2.0) / 100));
  // k = 4, replace: min(sqrt k, sqrt 2) = sqrt 2 -> 4/gap; add/remove: min(2, 1) = 1 -> 2 sqrt2/gap.
  CHECK(base::projector_sensitivity(100.0, 4, Neighbours::replace) == Approx(4.0 / 100));
  CHECK(base::projector_sensitivity(100.0, 4, Neighbours::add_remove) == Approx(2 * std::sqrt(2.0) / 100));
  CHECK(base::projector_sensitivity(1e-3, 2, Neighbours::replace) == Approx(2.0));  // cap sqrt(2k)
}

TEST_CASE("dp_gauss_2 gap test spends its share of the budget and has the Laplace spread", "[baselines]") {
  // Hand-built data with a large gap: 400 samples +-e1 and 100 samples +-0.5 e2 in d = 4, beta = 1:
  // normalised gap lambda_1 - lambda_2 = 400 - 25 = 375.
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(4, 500);
  for (int i = 0; i < 400; ++i) X(0, i) = i % 2 ? 1 : -1;
  for (int i = 400; i < 500; ++i) X(1, i) = i % 2 ? 0.5 : -0.5;
  const double eps = 1.0, delta = 0.01, gap = normalized_gap(X, 1.0, 1);
  REQUIRE(gap == Approx(375.0));
  const dpb::core::ParamMap params{{"beta", 1.0}, {"gap_budget_fraction", 0.25}};
  const auto e = tb::run(kDpGauss2, params, tb::input(X, 1, eps, delta), 1);
  // The ledger: the propose-test-release gap test (Laplace noise, sensitivity 2 under replace-one, scale
  // 2/eps1) at (eps1, delta1), then the projector's Gaussian release at the rest.
  const auto& ledger = e.ledger.entries();
  REQUIRE(ledger.size() == 2);
  CHECK(ledger[0].mechanism == dpb::alg::Mechanism::propose_test_release);
  CHECK(ledger[0].sensitivity == 2.0);
  CHECK(ledger[0].noise_scale == Approx(8.0));
  CHECK(ledger[0].calibrated_for.epsilon == Approx(0.25));
  CHECK(ledger[0].calibrated_for.delta == Approx(0.0025));
  CHECK(ledger[1].mechanism == dpb::alg::Mechanism::gaussian);
  CHECK(ledger[1].calibrated_for.epsilon == Approx(0.75));
  CHECK(ledger[1].calibrated_for.delta == Approx(0.0075));
  CHECK(e.diagnostics.counters.at("gap_test_passed") == 1);
  CHECK(e.claim.epsilon == eps);
  CHECK(e.claim.delta == delta);
  CHECK(dpb::alg::account(e.ledger, delta, Neighbours::replace).epsilon <= eps * (1 + 1e-6));
  // The projector noise is calibrated to Davis–Kahan at the released lower bound, with the rest.
  const double lower = e.diagnostics.counters.at("noisy_gap_lower_bound");
  CHECK(e.diagnostics.counters.at("noise_sd") ==
        Approx(dpb::alg::analytic_gaussian_sigma(base::projector_sensitivity(lower, 1, Neighbours::replace),
                                                 0.75, 0.0075)));
  CHECK(ledger[1].sensitivity == base::projector_sensitivity(lower, 1, Neighbours::replace));
  CHECK(ledger[1].noise_scale == e.diagnostics.counters.at("noise_sd"));
  // T = gap + Lap(b) - b log(1/(2 delta1)), b = 2/eps1 = 8: E|T - gap + margin| = b. Over 2000 seeds
  // the mean absolute deviation has sd b/sqrt(2000) (Var|Lap| = b^2): 0.1 b is a 4.5-sigma band.
  const double b = 2.0 / 0.25, margin = b * std::log(1.0 / (2 * 0.0025));
  std::vector<double> dev;
  for (std::uint64_t seed = 0; seed < 2000; ++seed) {
    const auto r = tb::run(kDpGauss2, params, tb::input(X, 1, eps, delta), 100 + seed);
    dev.push_back(std::abs(r.diagnostics.counters.at("noisy_gap_lower_bound") - gap + margin));
  }
  CHECK(dpb::test::mean(dev) == Approx(b).margin(0.1 * b));
  // The released subspace is e1 up to the small projector noise.
  CHECK(std::abs((*e.Q)(0, 0)) > 0.99);
}

TEST_CASE("dp_gauss_2 falls back to Analyze-Gauss when the gap test fails", "[baselines]") {
  // Equal spread in e1 and e2: gap 0, so T = Lap(b) - margin > 0 has probability delta1 = 0.005.
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(3, 40);
  for (int i = 0; i < 40; ++i) X(i % 2, i) = 1;
  const auto e = tb::run(kDpGauss2, {{"beta", 1.0}}, tb::input(X, 1, 1.0, 0.01), 3);
  CHECK(e.diagnostics.counters.at("gap_test_passed") == 0);
  const auto& ledger = e.ledger.entries();
  REQUIRE(ledger.size() == 2);
  CHECK(ledger[1].step.find("fallback") != std::string::npos);
  CHECK(ledger[0].calibrated_for.epsilon + ledger[1].calibrated_for.epsilon == Approx(1.0));
  CHECK(ledger[1].sensitivity == Approx(std::sqrt(2.0)));  // the trace-clipped sum at beta = 1
  CHECK(dpb::alg::account(e.ledger, 0.01, Neighbours::replace).epsilon <= 1.0 + 1e-6);
  // The fallback's noise is DP-Gauss-1's at the remaining (0.5, 0.005): sqrt(2) beta^2 sensitivity.
  CHECK(e.diagnostics.counters.at("noise_sd") ==
        Approx(dpb::alg::analytic_gaussian_sigma(std::sqrt(2.0), 0.5, 0.005)));
  CHECK(e.Q->cols() == 1);
}

TEST_CASE("dp_gauss_2 faithful mode resamples and claims no privacy", "[baselines]") {
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(3, 40);
  for (int i = 0; i < 40; ++i) X(i % 2, i) = 1;  // gap 0: each draw passes with probability 1/2
  long resampled = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const auto e = tb::run(kDpGauss2, {{"beta", 1.0}, {"mode", std::string("faithful")}},
                           tb::input(X, 1, 1, 0.01), seed);
    CHECK(e.diagnostics.counters.at("noisy_gap") > 0);
    resampled += e.diagnostics.counters.at("resamples") > 0;
    CHECK(e.claim.scope == ClaimScope::not_private);
    CHECK(describe(e.claim).find("NOT differentially private") != std::string::npos);
    // Every gap draw is in the ledger, and the projector release with sensitivity sqrt(2k): no gap holds.
    REQUIRE(e.ledger.entries().size() == 2);
    CHECK(static_cast<double>(e.ledger.entries()[0].uses) == 1 + e.diagnostics.counters.at("resamples"));
    CHECK(e.ledger.entries()[1].sensitivity == Approx(std::sqrt(2.0)));
  }
  // P(no resample in 20 runs) = 2^-20 or P(all resampled) = 2^-20: both far below any concern.
  CHECK(resampled > 0);
  CHECK(resampled < 20);
}

TEST_CASE("dp_gauss_2 approaches non-private PCA with tiny noise, and is deterministic", "[baselines]") {
  const auto s = tb::spiked(8, 2, 5.0, 2000, 4);
  const auto in = tb::input(s.X, 2, 1e6, 0.1, &s.info());
  const auto priv = tb::run(kDpGauss2, {}, in, 3);
  REQUIRE(priv.diagnostics.counters.at("gap_test_passed") == 1);
  const auto exact = tb::run("baseline.nonprivate_pca", {}, in, 3);
  // At eps = 1e6 the analytic sd is ~ Delta / sqrt(2 eps) = 7e-4 Delta, Delta = projector_sensitivity ~ 4/100
  // (normalised gap ~ n lambda / beta^2 ~ 100), so ||E||_F ~ 8 x 3e-5 on a projector with unit gap;
  // Davis–Kahan bounds the distance by 2 sqrt(2) ||E||_F ~ 7e-4 < 2e-3.
  CHECK(priv.diagnostics.counters.at("noise_sd") < 1e-4);
  CHECK(dpb::core::projector_distance(*priv.Q, *exact.Q, {dpb::core::Norm::fro}) < 2e-3);
  CHECK(*priv.Q == *tb::run(kDpGauss2, {}, in, 3).Q);
}

TEST_CASE("dp_gauss_2 error shrinks with n", "[baselines]") {
  // As for dp_gauss_1: the gap grows like n, the noise does not; 0.6 leaves room for 4 trials.
  CHECK(tb::mean_error(kDpGauss2, {}, 16000, 4) < 0.6 * tb::mean_error(kDpGauss2, {}, 1000, 4));
}
