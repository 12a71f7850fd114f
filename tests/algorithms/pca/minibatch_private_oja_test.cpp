#include "algorithms/pca/minibatch_private_oja.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "liu2022_fixtures.hpp"
#include "support/statistics.hpp"

using namespace dpb::alg;
using Catch::Matchers::Contains;
using dpb::test::liu2022::input;
using dpb::test::liu2022::spiked;
using dpb::test::liu2022::with_explicit_constants;

namespace {

MinibatchPrivateOjaParams explicit_params(long long T) {
  MinibatchPrivateOjaParams p = with_explicit_constants(MinibatchPrivateOjaParams{});
  p.T = T;
  return p;
}

}  // namespace

TEST_CASE("liu2022.minibatch_private_oja rejects invalid input with what is allowed", "[liu2022]") {
  const auto data = spiked(5, 100, 1);
  dpb::core::Rng rng(1, 1);
  CHECK_THROWS_WITH(MinibatchPrivateOja(explicit_params(200)).run(input(*data.samples, 0.5, 1e-3), rng),
                    Contains("B = floor(n/T) = 0"));
  // serial: eps/T must be < 1 (Lemma 2.4); parallel: eps < 1.
  CHECK_THROWS_WITH(MinibatchPrivateOja(explicit_params(2)).run(input(*data.samples, 3, 1e-3), rng),
                    Contains("eps < 1"));
  auto parallel = explicit_params(10);
  parallel.composition = MinibatchPrivateOjaParams::Composition::parallel;
  CHECK_THROWS_WITH(MinibatchPrivateOja(parallel).run(input(*data.samples, 1.5, 1e-3), rng),
                    Contains("eps < 1"));
  CHECK_THROWS_AS(MinibatchPrivateOja(explicit_params(-1)), dpb::InvalidArgument);
}

TEST_CASE("liu2022.minibatch_private_oja adds N(0, (2 eta_t beta alpha / B)^2 I) per step", "[liu2022]") {
  // Eq. (7) corrected: noise coefficient 2 (not the printed 'w') and 1/B; alpha from serial composition
  // T sqrt(2 log(1.25 T/delta))/eps or parallel sqrt(2 log(1.25/delta))/eps. 50 steps x 20 runs x d = 5
  // gives 5000 standardised values: KS at 1e-6 and variance within 0.1 of 1, as in private_oja_test.
  const auto data = spiked(5, 1000, 2);
  const double n = 1000, d = 5, eps = 0.8, delta = 1e-4, T = 50, B = 20;
  const double beta = 5 * std::sqrt(d) * (4 * std::log(2 * n * d / 0.01) + 1);
  for (const bool serial : {true, false}) {
    SECTION(serial ? "serial" : "parallel") {
      auto p = explicit_params(50);
      p.composition = serial ? MinibatchPrivateOjaParams::Composition::serial
                             : MinibatchPrivateOjaParams::Composition::parallel;
      const double alpha = serial ? T * std::sqrt(2 * std::log(1.25 * T / delta)) / eps
                                  : std::sqrt(2 * std::log(1.25 / delta)) / eps;
      std::vector<double> z;
      const auto observe = [&](const liu2022::StepRecord& r) {
        for (Eigen::Index j = 0; j < r.noisy.size(); ++j)
          z.push_back((r.noisy[j] - r.noise_free[j]) / (2 * r.eta * beta * alpha / B));
      };
      for (int run = 0; run < 20; ++run) {
        dpb::core::Rng rng(run, 5);
        const auto e = MinibatchPrivateOja(p).run_observed(input(*data.samples, eps, delta), rng, observe);
        // One entry: T steps on disjoint minibatches, each at its budget; charged once.
        REQUIRE(e.ledger.entries().size() == 1);
        CHECK(e.ledger.entries()[0].uses == 50);
        CHECK(e.ledger.entries()[0].calibrated_for.epsilon == Approx(serial ? eps / T : eps));
      }
      REQUIRE(z.size() == 5000);
      CHECK(dpb::test::ks_statistic(z, dpb::test::normal_cdf) < dpb::test::ks_critical(z.size(), 1e-6));
      CHECK(std::abs(dpb::test::variance(z) - 1) < 0.1);
    }
  }
}

TEST_CASE("liu2022.minibatch_private_oja sums B terms (corrected) or B - 1 (faithful)", "[liu2022]") {
  // Known answer: x_i = e1 for every i and w is anything: the noise-free drift of step t is
  // eta_t (terms/B) (e1 e1^T) w. The observer exposes it.
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(3, 40);
  X.row(0).setOnes();
  const dpb::core::VectorSamples samples(X);
  for (const bool faithful : {false, true}) {
    auto p = explicit_params(4);  // B = 10
    p.faithful = faithful;
    double ratio = 0;
    const auto observe = [&](const liu2022::StepRecord& r) {
      ratio = (r.noise_free[0] - r.w_prev[0]) / (r.eta * r.w_prev[0]);
      CHECK(r.noise_free[1] == r.w_prev[1]);
    };
    dpb::core::Rng rng(1, 1);
    MinibatchPrivateOja(p).run_observed(input(samples, 0.5, 1e-3), rng, observe);
    CHECK(ratio == Approx(faithful ? 0.9 : 1.0).epsilon(1e-12));
  }
}

TEST_CASE("liu2022.minibatch_private_oja's white-box transcript: each minibatch's release and the records it read",
          "[liu2022][audit]") {
  // Asked for (the auditor's transcript_lr), step t appends (w'_t - w_{t-1}) / eta_t = (1/B) sum clip(A_i w) +
  // noise over the minibatch's terms (B corrected, B - 1 faithful: the records it reads), with sd 2 beta alpha / B.
  const auto data = spiked(5, 400, 2);
  for (const bool faithful : {false, true}) {
    auto p = explicit_params(4);  // B = 100
    p.faithful = faithful;
    Input in = input(*data.samples, 0.5, 1e-3);
    in.record_transcript = true;
    std::vector<Eigen::VectorXd> steps;
    const auto observe = [&](const liu2022::StepRecord& r) { steps.push_back((r.noisy - r.w_prev) / r.eta); };
    dpb::core::Rng rng(1, 1);
    const Estimate e = MinibatchPrivateOja(p).run_observed(in, rng, observe);
    REQUIRE(e.transcript.size() == 4);
    const double beta = e.diagnostics.counters.at("clip_threshold"), alpha = e.diagnostics.counters.at("noise_multiplier");
    for (Eigen::Index t = 0; t < 4; ++t) {
      const GaussianRelease& r = e.transcript[std::size_t(t)];
      CHECK(r.value.isApprox(steps[std::size_t(t)]));
      CHECK(r.first_record == 100 * t);
      CHECK(r.end_record == 100 * t + (faithful ? 99 : 100));
      CHECK(r.scale == Approx(0.01));
      CHECK(r.clip == beta);
      CHECK(r.noise_sd == Approx(2 * beta * alpha / 100).epsilon(1e-12));
    }
  }
}

TEST_CASE("liu2022.minibatch_private_oja is deterministic, converges, and its error shrinks with n",
          "[liu2022]") {
  // parallel composition, eps = 0.9, d = 5, T = 20 steps of B = n/20 samples, C = 0.2 (cai2024's clip
  // constant), K = 4, gamma = 1, c1 = 10/gap (large early steps: with normalisation this is close to a
  // noisy power iteration on the minibatch means). The noise per step is 2 eta beta alpha/B, so the last
  // iterate's error is about sqrt(d - 1) x (2 beta alpha/B + sqrt(l1 l2/B)) / gap; the bound is 3x that.
  double mean_sin[2] = {0, 0};
  const Eigen::Index sizes[2] = {20000, 200000};
  auto prediction = [](double n) {
    const double B = n / 20, beta = 0.2 * 5 * std::sqrt(5.0) * (4 * std::log(2 * n * 5 / 0.01) + 1);
    const double alpha = std::sqrt(2 * std::log(1.25 / 1e-5)) / 0.9;
    return 2 * (2 * beta * alpha / B + std::sqrt(5.0 / B)) / 4;
  };
  for (int rep = 0; rep < 5; ++rep)
    for (int s = 0; s < 2; ++s) {
      const auto data = spiked(5, sizes[s], 300 + rep);
      auto p = explicit_params(20);
      p.composition = MinibatchPrivateOjaParams::Composition::parallel;
      p.clip_constant = 0.2;
      p.practical.c1 = 2.5;
      dpb::core::Rng rng(rep, 13), replay(rep, 13);
      const auto in = input(*data.samples, 0.9, 1e-5);
      const auto e = MinibatchPrivateOja(p).run(in, rng);
      if (rep == 0) CHECK(*MinibatchPrivateOja(p).run(in, replay).Q == *e.Q);
      mean_sin[s] += dpb::core::sin_angle(e.Q->col(0), data.info().target.col(0)) / 5;
    }
  INFO("mean sin: " << mean_sin[0] << ", " << mean_sin[1] << "; predictions " << prediction(2e4) << ", "
                    << prediction(2e5));
  CHECK(mean_sin[0] < 3 * prediction(2e4));
  CHECK(mean_sin[1] < 3 * prediction(2e5));
  CHECK(mean_sin[1] * 2 < mean_sin[0]);
}
