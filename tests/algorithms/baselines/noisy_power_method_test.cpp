#include <catch2/catch.hpp>

#include "algorithms/baselines/noisy_power_method.hpp"
#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"
#include "tests/algorithms/baselines/baseline_test_support.hpp"
#include "tests/support/statistics.hpp"

namespace tb = dpb::test::baselines;
namespace base = dpb::alg::baselines;
using dpb::alg::Neighbours;

namespace {
constexpr const char* kId = "baseline.noisy_power_method";
}

TEST_CASE("noisy_power_method rejects invalid input", "[baselines]") {
  const auto s = tb::spiked(5, 1, 5.0, 50, 1);
  const dpb::core::ParamMap radii{{"beta", 5.0}, {"alpha", 10.0}};
  CHECK_THROWS_AS(tb::run(kId, radii, tb::input(s.X, 6, 1, 0.1), 1), dpb::InvalidArgument);
  CHECK_THROWS_AS(tb::run(kId, radii, tb::input(s.X, 1, 1, 0.0), 1), dpb::InvalidArgument);
  CHECK_THROWS_WITH(tb::run(kId, {{"beta", 5.0}}, tb::input(s.X, 1, 1, 0.1), 1), Catch::Contains("alpha"));
  CHECK_THROWS_AS(dpb::alg::algorithm_registry().make(kId, {{"iterations", 2.5}}), dpb::InvalidArgument);
}

TEST_CASE("noisy_power_method clips by trace and by the l1-type radius", "[baselines]") {
  // d = 4: x = (1,1,1,1) has ||x||_2 = 2, ||x||_1 = 4; y = (3,0,0,0) has 3 and 3; z = (0.5,0,0,0).
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(4, 3);
  X.col(0).setOnes();
  X(0, 1) = 3;
  X(0, 2) = 0.5;
  // beta = 2.5 clips y (trace 9 > 6.25); alpha = 3.5 clips x (l1 4 > 3.5; its trace 4 passes).
  const auto e =
      tb::run(kId, {{"beta", 2.5}, {"alpha", 3.5}, {"iterations", 1.0}}, tb::input(X, 1, 1, 0.1), 1);
  CHECK(e.diagnostics.counters.at("clipped") == 2);
  CHECK(e.diagnostics.counters.at("clipped_by_alpha") == 1);
}

TEST_CASE("noisy_power_method adds the noise of its formula each iteration", "[baselines]") {
  const auto s = tb::spiked(12, 2, 5.0, 300, 5);
  const double beta = 6.0, alpha = 15.0, eps = 0.8, delta = 0.01;
  const int L = 6;
  const auto e = tb::run(kId, {{"beta", beta}, {"alpha", alpha}, {"iterations", double(L)}},
                         tb::input(s.X, 2, eps, delta), 9);
  // Replay of the first iteration's sd: X_0 is the first draw of the stream; the rule is
  // sqrt(L) z min(sqrt(2) beta^2, 2 sqrt(k) beta alpha ||X_0||_max), z the unit (eps, delta) multiplier.
  dpb::core::Rng rng(9, dpb::core::stream_id("baselines-test", 0, kId, 9, "noise"));
  const Eigen::MatrixXd X0 = dpb::core::haar_frame(rng, 12, 2);
  const double z = dpb::alg::analytic_gaussian_sigma(1.0, eps, delta);
  const double expected_sd =
      std::sqrt(double(L)) * z *
      std::min(std::sqrt(2.0) * beta * beta, 2 * std::sqrt(2.0) * beta * alpha * X0.cwiseAbs().maxCoeff());
  CHECK(e.diagnostics.counters.at("noise_sd_first") == Approx(expected_sd).epsilon(1e-12));
  CHECK(e.claim.epsilon == eps);
  // The transcript is the L releases themselves: X_0 is the first query, sd_1 its noise.
  REQUIRE(e.transcript.size() == std::size_t(L));
  CHECK(e.transcript.front().query.isApprox(X0));
  CHECK(e.transcript.front().noise_sd == Approx(expected_sd).epsilon(1e-12));
  // The ledger: the L releases, each with the sensitivity its noise is scaled to, merged into one entry
  // (same noise multiplier); each is calibrated for its Gaussian-DP share, and together they spend eps.
  REQUIRE(e.ledger.entries().size() == 1);
  const auto& entry = e.ledger.entries()[0];
  CHECK(entry.uses == L);
  CHECK(entry.noise_scale / entry.sensitivity == Approx(std::sqrt(double(L)) * z).epsilon(1e-12));
  CHECK(entry.calibrated_for.epsilon == Approx(dpb::alg::gaussian_epsilon(std::sqrt(double(L)) * z, delta)));
  CHECK(entry.calibrated_for.epsilon < eps);
  CHECK(dpb::alg::account(e.ledger, delta, Neighbours::replace).epsilon == Approx(eps).epsilon(1e-6));
  CHECK_NOTHROW(dpb::alg::check_claim(e.ledger, e.claim, kId));
  // The mutant zoo's seam: every iteration at the whole budget drops the sqrt(L) of the composition and
  // keeps the claim (same stream, so the same X_0).
  const auto split_not = base::make_noisy_power_method({{"beta", beta}, {"alpha", alpha}, {"iterations", double(L)}},
                                                       /*compose_iterations=*/false);
  dpb::core::Rng replay(9, dpb::core::stream_id("baselines-test", 0, kId, 9, "noise"));
  const auto broken = split_not->run(tb::input(s.X, 2, eps, delta), replay);
  CHECK(broken.transcript.front().noise_sd == Approx(expected_sd / std::sqrt(double(L))).epsilon(1e-12));
  CHECK(broken.claim.epsilon == eps);
  // ...and its ledger shows it: L releases each calibrated for the whole (eps, delta) compose to far more.
  REQUIRE(broken.ledger.entries().size() == 1);
  CHECK(broken.ledger.entries()[0].calibrated_for.epsilon == Approx(eps).epsilon(1e-6));
  CHECK(dpb::alg::account(broken.ledger, delta, Neighbours::replace).epsilon > 2 * eps);
  CHECK_THROWS_AS(dpb::alg::check_claim(broken.ledger, broken.claim, kId), dpb::alg::PrivacyOverspend);

  // Spread through the seam: Y_l - S X_{l-1} is the noise actually added. S fixed, 200 runs of 5
  // iterations on d = 40, k = 2: 16000 entries, normalised by each iteration's sd; the sample variance
  // has relative sd sqrt(2/16000) = 0.011, so |ratio - 1| < 0.05 is a 4.5-sigma band.
  const Eigen::MatrixXd S = dpb::core::second_moment(tb::spiked(40, 2, 5.0, 100, 6).X) * 100.0;
  const base::PowerSensitivity bound{std::sqrt(2.0) * 9.0, 2 * std::sqrt(2.0) * 3.0 * 4.0};
  const base::PowerNoiseRule rule{bound, bound, 2.5};
  std::vector<double> normalised;
  dpb::core::Rng seam(21, 0);
  for (int run = 0; run < 200; ++run) {
    std::vector<dpb::alg::GaussianRelease> transcript;
    dpb::alg::Ledger ledger;
    base::noisy_power_iterations(S, dpb::core::haar_frame(seam, 40, 2), 5, rule, {0.3, 1e-5}, ledger, seam,
                                 &transcript);
    REQUIRE(transcript.size() == 5);
    REQUIRE(ledger.entries().size() == 1);  // one multiplier: the five releases merge
    REQUIRE(ledger.entries()[0].uses == 5);
    for (const auto& release : transcript) {
      REQUIRE(release.noise_sd == Approx(rule.sd(release.query)));
      const Eigen::MatrixXd G = release.value - S * release.query;
      for (Eigen::Index i = 0; i < G.size(); ++i) normalised.push_back(G(i) / release.noise_sd);
    }
  }
  CHECK(dpb::test::variance(normalised) == Approx(1.0).margin(0.05));
}

// The auditor's white-box mode fixes a public start (Input::start): X_0 is then its first k columns, the
// transcript's first query (the method drew its own X_0 and ignored the start). A start of too few columns is
// refused.
TEST_CASE("noisy_power_method starts at the auditor's public start", "[baselines]") {
  const auto s = tb::spiked(6, 2, 5.0, 300, 5);
  const dpb::core::ParamMap radii{{"beta", 6.0}, {"alpha", 15.0}, {"iterations", 3.0}};
  Eigen::MatrixXd start = Eigen::MatrixXd::Zero(6, 3);
  start(5, 0) = start(2, 1) = start(0, 2) = 1;
  auto in = tb::input(s.X, 2, 0.8, 0.01);
  in.start = &start;
  const auto e = tb::run(kId, radii, in, 9);
  REQUIRE(!e.transcript.empty());
  CHECK(e.transcript.front().query == start.leftCols(2));
  const Eigen::MatrixXd narrow = Eigen::MatrixXd::Identity(6, 1);
  in.start = &narrow;
  CHECK_THROWS_AS(tb::run(kId, radii, in, 9), dpb::InvalidArgument);
}

TEST_CASE("noisy_power_method faithful mode reports the eps its printed noise achieves", "[baselines]") {
  const auto s = tb::spiked(8, 1, 5.0, 100, 2);
  const dpb::core::ParamMap p{
      {"beta", 5.0}, {"alpha", 12.0}, {"iterations", 4.0}, {"mode", std::string("faithful")}};
  const auto e = tb::run(kId, p, tb::input(s.X, 2, 1.0, 0.01), 1);
  const auto& claim = e.claim;
  // s = sqrt(4 L log(1/delta))/eps, per-iteration multiplier >= s/(2 sqrt k): composed multiplier
  // s / (2 sqrt(k L)) = sqrt(16 log 100) / (2 sqrt 8) = 1.52, below the 1.88 that (1, 0.01) needs.
  const double zc = std::sqrt(4 * 4 * std::log(100.0)) / (2 * std::sqrt(2.0 * 4));
  CHECK(zc < dpb::alg::analytic_gaussian_sigma(1.0, 1.0, 0.01));
  CHECK(claim.epsilon == Approx(dpb::alg::gaussian_epsilon(zc, 0.01)).epsilon(1e-9));
  CHECK(claim.epsilon > 1.0);
  // The ledger's true per-iteration sensitivities are at most what the claim assumes: within it.
  REQUIRE_FALSE(e.ledger.empty());
  CHECK(dpb::alg::account(e.ledger, 0.01, Neighbours::replace).epsilon <= claim.epsilon * (1 + 1e-6));
}

TEST_CASE("noisy_power_method approaches non-private PCA with tiny noise, and is deterministic",
          "[baselines]") {
  const auto s = tb::spiked(8, 2, 5.0, 2000, 4);
  const auto in = tb::input(s.X, 2, 1e6, 0.1, &s.info());
  const auto priv = tb::run(kId, {}, in, 3);
  const auto exact = tb::run("baseline.nonprivate_pca", {}, in, 3);
  // Spikes 6, 6 against 1: the power method contracts the error by lambda_3/lambda_2 = 1/6 per step, and
  // L = 10 ceil(ln 8) = 30 steps reach ~6^-30; the per-step noise (~1e-3 of the sensitivity, eps = 1e6)
  // against eigengap 1e4 leaves ~1e-4.
  CHECK(dpb::core::projector_distance(*priv.Q, *exact.Q, {dpb::core::Norm::fro}) < 2e-3);
  CHECK(*priv.Q == *tb::run(kId, {}, in, 3).Q);
}

TEST_CASE("noisy_power_method error shrinks with n", "[baselines]") {
  // Per-iteration noise does not grow with n while S X grows like n: 16x the samples cuts the error well
  // below 0.6x in expectation (4 trials).
  CHECK(tb::mean_error(kId, {}, 16000, 4) < 0.6 * tb::mean_error(kId, {}, 1000, 4));
}
