#include "algorithms/pca/dp_pca.hpp"

#include "algorithms/mechanisms/accountant.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/samplers.hpp"
#include "liu2022_fixtures.hpp"
#include "support/statistics.hpp"

using namespace dpb::alg;
using Catch::Matchers::Contains;
using dpb::test::liu2022::input;
using dpb::test::liu2022::ScaledIdentitySamples;
using dpb::test::liu2022::spiked;

namespace {

DpPcaParams params(long long T, double c1 = 2.5, double c2 = 0) {
  DpPcaParams p;  // bottom_policy skip (the default)
  p.T = T;
  p.practical.c1 = c1;
  p.practical.c2 = c2;
  return p;
}

// Scales for the BOTTOM tests (n = 2000, T = 2, B = 1000, floor(B/2) = 500, k = 161, so b = 1): in the
// first half of every minibatch, pair j's difference is 2^j (so subset j's eigenvalue is 4^j: every subset
// in its own bin), or 0 everywhere when `zero`; the second half is A = `second` I.
Eigen::VectorXd bottom_scales(bool zero, double second) {
  Eigen::VectorXd s = Eigen::VectorXd::Zero(2000);
  for (Eigen::Index t = 0; t < 2; ++t) {
    for (Eigen::Index j = 0; j < 250 && !zero; ++j)
      s[1000 * t + 2 * j + 1] = std::exp2(static_cast<double>(j % 161));
    s.segment(1000 * t + 500, 500).setConstant(second);
  }
  return s;
}

// At simulable n, Alg. 4's subsets hold few paired differences (b = floor(B/2)/(2k) is 25 to 250 below)
// and, with heavy-tailed gradients A_i w, their eigenvalues spread over several bins: Alg. 4 often returns
// BOTTOM (spec ambiguity 17: Thm 6.1's B-requirement is missing from Eq. (9)). These tests therefore use
// the floor fallback with lambda_min = 1, about the scale of lambda1^2 ||H_w|| (between 5 and 50 here).
DpPcaParams floored(long long T) {
  DpPcaParams p = params(T);
  p.bottom_policy = DpPcaParams::BottomPolicy::floor;
  p.lambda_min = 1;
  return p;
}

}  // namespace

TEST_CASE("liu2022.dp_pca rejects invalid input with what is allowed", "[liu2022]") {
  const auto data = spiked(5, 20000, 1);
  dpb::core::Rng rng(1, 1);
  const DpPca alg(params(5));
  CHECK_THROWS_WITH(alg.run(input(*data.samples, 0.9, 1e-5), rng), Contains("eps in (0, 0.9)"));
  CHECK_THROWS_WITH(alg.run(input(*data.samples, 0.5, 1e-3), rng), Contains("delta <= 1/n"));
  CHECK_THROWS_WITH(DpPca(params(50)).run(input(*data.samples, 0.5, 1e-5), rng),
                    Contains("floor(B/2) >= 2k"));
  auto both = params(5);
  both.B = 100;
  CHECK_THROWS_WITH(DpPca(both), Contains("give T or B, not both"));
  auto floor = params(5);
  floor.bottom_policy = DpPcaParams::BottomPolicy::floor;
  CHECK_THROWS_WITH(DpPca(floor), Contains("lambda_min > 0"));
  auto theory = params(5);
  theory.schedule = DpPcaParams::Schedule::theory;
  CHECK_THROWS_WITH(DpPca(theory).run(input(*data.samples, 0.5, 1e-5), rng), Contains("lambda1"));
  Input k2 = input(*data.samples, 0.5, 1e-5);
  k2.k = 2;
  CHECK_THROWS_WITH(alg.run(k2, rng), Contains("k = 1"));
}

TEST_CASE("liu2022.dp_pca's default T is the paper's, lowered to the largest T Alg. 4 can run", "[liu2022]") {
  // n = 2e4 at (0.5, 1e-5): the paper's T = ceil((log n)^2) = 99 leaves floor(B/2) = 101 paired differences
  // against 2k = 712. Before, the default threw (and `dpbounds pca` carried its own copy of this rule).
  const auto data = spiked(5, 20000, 1);
  const double eps = 0.5, delta = 1e-5, zeta = DpPcaParams{}.zeta, C1 = DpPcaParams{}.top.C1;
  const auto feasible = [&](long T) {
    return (20000 / T) / 2 >= 2 * top_eigenvalue_subsets(eps / 2, delta / 2, zeta / (2.0 * double(T)), C1);
  };
  REQUIRE_FALSE(feasible(99));
  long expected = 99;
  while (!feasible(expected)) --expected;
  dpb::core::Rng rng(1, 1);
  const auto e = DpPca(params(0)).run(input(*data.samples, eps, delta), rng);
  CHECK(e.diagnostics.counters.at("T") == double(expected));
  CHECK(e.diagnostics.counters.at("B") == double(20000 / expected));
  REQUIRE_FALSE(e.diagnostics.notes.empty());
  CHECK_THAT(e.diagnostics.notes.back(), Contains("ceil((log n)^2) = 99") && Contains("largest T"));
  // A T the user gives is kept, and refused when infeasible.
  CHECK_THROWS_WITH(DpPca(params(expected + 1)).run(input(*data.samples, eps, delta), rng),
                    Contains("or lower T"));
  // A B the user gives is what Alg. 4's half is taken of, not n / T: find a B whose half falls short of 2k
  // while n / T's would not (T = floor(n / B)); it must be refused.
  const auto two_k = [&](long T) {
    return 2 * top_eigenvalue_subsets(eps / 2, delta / 2, zeta / (2.0 * double(T)), C1);
  };
  long short_b = 0;
  for (long B = 3000; B > 1000 && short_b == 0; --B)
    if (B / 2 < two_k(20000 / B) && (20000 / (20000 / B)) / 2 >= two_k(20000 / B)) short_b = B;
  REQUIRE(short_b > 0);
  auto given_b = params(0);
  given_b.B = short_b;
  CHECK_THROWS_WITH(DpPca(given_b).run(input(*data.samples, eps, delta), rng), Contains("floor(B/2) >= 2k"));
  // Where not even T = 1 fits, the default says so without suggesting a smaller T.
  const auto few = spiked(5, 600, 1);
  CHECK_THROWS_WITH(DpPca(params(0)).run(input(*few.samples, eps, 1e-6), rng),
                    Contains("T = 1") && !Contains("lower T"));
}

TEST_CASE("liu2022.dp_pca adds Alg. 5's noise eta_t N(0, sigma_t^2 I) with sigma_t of line 7", "[liu2022]") {
  // n = 1e5, d = 5, T = 5 (B = 20000, floor(B/2) = 10000), eps = 0.8, delta = 1e-5. Alg. 5 runs at
  // (eps/2, delta/2) and zeta/(2T) on floor(B/2) vectors with Lambda = 2 Lambda_hat_t (the observer's
  // lambda_hat), so sigma_t = 12 K sqrt(Lambda) log(floor(B/2) d 2T/zeta) sqrt(2d log(5/delta))/((eps/2)
  // floor(B/2)). (noisy - noise_free)/(eta_t sigma_t) over 40 runs x 5 steps x 5 coordinates must be N(0, 1):
  // KS at 1e-6 and variance within 0.15 of 1 (about 3 sd at n = 1000).
  const auto data = spiked(5, 100000, 2);
  const double eps = 0.8, delta = 1e-5, half = 10000, d = 5, zeta_step = 0.01 / 10;
  std::vector<double> z;
  double truncated = 0;
  const auto observe = [&](const liu2022::StepRecord& r) {
    const double sigma = 12 * 4 * std::sqrt(r.lambda_hat) * std::log(half * d / zeta_step) *
                         std::sqrt(2 * d * std::log(2.5 / (delta / 2))) / ((eps / 2) * half);
    for (Eigen::Index j = 0; j < 5; ++j) z.push_back((r.noisy[j] - r.noise_free[j]) / (r.eta * sigma));
  };
  for (int run = 0; run < 40; ++run) {
    dpb::core::Rng rng(run, 3);
    const auto e = DpPca(floored(5)).run_observed(input(*data.samples, eps, delta), rng, observe);
    truncated += e.diagnostics.counters.at("truncated_entries");
    // Per step: Alg. 4's histogram and Alg. 5's histograms and Gaussian, on the two halves of the step's
    // minibatch (2T disjoint parts); each part spends at most (eps/2, delta/2).
    CHECK(e.ledger.entries().size() == 15);
    CHECK(e.ledger.entries()[0].calibrated_for.epsilon == Approx(0.4));
    CHECK(e.ledger.entries()[2].calibrated_for.delta == Approx(5e-6 / 2));
    CHECK(account(e.ledger, delta, Neighbours::replace).epsilon <= eps / 2 * (1 + 1e-9));
  }
  REQUIRE(z.size() == 1000);
  CHECK(dpb::test::ks_statistic(z, dpb::test::normal_cdf) < dpb::test::ks_critical(z.size(), 1e-6));
  CHECK(std::abs(dpb::test::variance(z) - 1) < 0.15);
  CHECK(truncated == 0);  // Lemma 6.2 on model data: no truncation expected
}

TEST_CASE("liu2022.dp_pca converges to v1 and its error shrinks with n", "[liu2022]") {
  // Alg. 5's noise is large: sigma_t/lambda1 is about 4e4/floor(B/2), so DP-PCA gets accurate only at n in
  // the millions. Data: d = 2, Sigma = diag(5, 1), streamed (nothing stored), n = 5e5 and 5e6, 6 runs each, T
  // = 5, eps = 0.8, delta = 1/n, eta_t = 25/t (c1 = 100/gap: large steps, each close to a power-iteration
  // step, so the optimisation error ~ (lambda2/lambda1)^5 is far below the noise). bottom_policy = floor with
  // lambda_min = 100 > every Lambda_hat_t here (about lambda1^2 ||H_w|| <= 50 times 2^{+-1/2}), so Alg. 5
  // always gets Lambda = 200 and sigma_t is the same at every step: sigma = 12 K sqrt(200) log(floor(B/2) d
  // 2T/zeta) sqrt(2d log(5/delta))/((eps/2) floor(B/2)). The last step's tangent error is about
  // (sigma + sqrt(l1 l2/(B/2)))/gap per tangent coordinate (d - 1 = 1 of them), so sin <~ that; the bound
  // is 3x (capped at 1 for the small n). Ten times the data cuts sigma 10x (predictions ~0.7 -> ~0.13): the
  // mean sin must fall >= 3x.
  double mean_sin[2] = {0, 0};
  const Eigen::Index sizes[2] = {500000, 5000000};
  for (int rep = 0; rep < 6; ++rep)
    for (int s = 0; s < 2; ++s) {
      const double n = static_cast<double>(sizes[s]), half = std::floor(n / 10);
      const dpb::test::liu2022::StreamingSpikedSamples samples(sizes[s], 2, 500 + rep);
      auto p = params(5, 25, 0);
      p.bottom_policy = DpPcaParams::BottomPolicy::floor;
      p.lambda_min = 100;
      double lambda = 0;
      dpb::core::Rng rng(rep, 17);
      const auto e = DpPca(p).run_observed(input(samples, 0.8, 1 / n), rng,
                                           [&](const liu2022::StepRecord& r) { lambda = r.lambda_hat; });
      REQUIRE(lambda == 200);
      const double sigma = 12 * 4 * std::sqrt(200.0) * std::log(half * 2 / 0.001) *
                           std::sqrt(4 * std::log(5 * n)) / (0.4 * half);
      const double err = dpb::core::sin_angle(e.Q->col(0), Eigen::Vector2d(1, 0));
      const double prediction = std::min(1.0, (sigma + std::sqrt(5 / half)) / 4);
      INFO("n = " << n << ": sin = " << err << ", prediction " << prediction);
      CHECK(err < 3 * prediction);
      mean_sin[s] += err / 6;
    }
  INFO("mean sin " << mean_sin[0] << " -> " << mean_sin[1]);
  CHECK(mean_sin[1] * 3 < mean_sin[0]);
}

TEST_CASE("liu2022.dp_pca is deterministic for a seed and carries its claim", "[liu2022]") {
  const auto data = spiked(5, 20000, 5);
  dpb::core::Rng a(1, 1), b(1, 1), c(2, 1);
  const DpPca alg(params(2));
  const auto in = input(*data.samples, 0.8, 1e-5);
  const auto ea = alg.run(in, a);
  CHECK(*ea.Q == *alg.run(in, b).Q);
  CHECK(*ea.Q != *alg.run(in, c).Q);
  CHECK(ea.claim.epsilon == 0.8);
  CHECK(ea.claim.delta == 1e-5);
  CHECK(ea.claim.scope == ClaimScope::worst_case);
  CHECK_THAT(ea.claim.conditions[1], Contains("ambiguity 3"));
}

TEST_CASE("liu2022.dp_pca BOTTOM and zero-eigenvalue fallbacks are post-processing only", "[liu2022]") {
  // n = 2000, T = 2, delta = 1e-4: k = ceil(4 log(1/(5e-5 * 2.5e-3))/0.4) + 2 = 161 and b = 1.
  REQUIRE(top_eigenvalue_subsets(0.4, 5e-5, 0.0025, 4) == 161);
  const double eps = 0.8, delta = 1e-4;
  dpb::core::Rng replay(9, 9);
  const Eigen::VectorXd w0 = dpb::core::unit_sphere(replay, 4);
  for (const bool zero : {false, true}) {
    SECTION(zero ? "zero bin" : "BOTTOM") {
      // skip: Alg. 4 reports BOTTOM (or [0, 0]) at every step, so w_T = w_0 whatever the second halves hold:
      // the fallback reads no data.
      for (const double second : {1.0, -3.0}) {
        const ScaledIdentitySamples samples(bottom_scales(zero, second), 4);
        dpb::core::Rng rng(9, 9);
        const auto e = DpPca(params(2)).run(input(samples, eps, delta), rng);
        CHECK((e.Q->col(0) - w0).norm() == 0);
        CHECK(e.diagnostics.counters.at("skipped_steps") == 2);
        CHECK(e.diagnostics.counters.at(zero ? "zero_bin" : "bottom") == 2);
        CHECK(e.ledger.entries().size() == 2);  // Alg. 4 ran (and spent its budget); Alg. 5 did not
        CHECK_THAT(e.diagnostics.notes.at(0), Contains("skipped"));
      }
      // floor: Lambda_hat = lambda_min, then Alg. 5 runs with 2 lambda_min.
      auto floor = params(2);
      floor.bottom_policy = DpPcaParams::BottomPolicy::floor;
      floor.lambda_min = 0.5;
      const ScaledIdentitySamples samples(bottom_scales(zero, 1.0), 4);
      std::vector<double> lambdas;
      dpb::core::Rng rng(9, 9);
      const auto e =
          DpPca(floor).run_observed(input(samples, eps, delta), rng,
                                    [&](const liu2022::StepRecord& r) { lambdas.push_back(r.lambda_hat); });
      CHECK(e.diagnostics.counters.at("floored_steps") == 2);
      CHECK(lambdas == std::vector<double>{1.0, 1.0});
      CHECK(e.ledger.entries().size() == 6);  // Alg. 4, then Alg. 5's histograms and Gaussian, twice
    }
  }
}

TEST_CASE("liu2022.dp_pca theory schedule (Eq. 60) reads the oracle and is vacuous at simulable n",
          "[liu2022]") {
  const auto data = spiked(5, 20000, 6);
  auto p = params(2);
  p.schedule = DpPcaParams::Schedule::theory;
  const auto s = DpPca(p).setup(input(*data.samples, 0.8, 1e-5, &data.info()));
  const double alpha = std::log(20000.0);
  CHECK(s.eta.c1 == Approx(alpha / 4));
  // xi >= 20 (V~ + l1^2) alpha^2/(gap^2 log(1 + zeta/100)) >= 20 * 25 alpha^2/(16 * 1e-4): far above T = 2.
  CHECK(s.eta.c2 > 20 * 25 * alpha * alpha / (16 * 1e-4));
}

// The auditor's white-box mode fixes a public start (Input::start) so that the step reading the audited
// record queries a known direction: DP-PCA's first step must query it (it drew w_0 and ignored the start).
TEST_CASE("liu2022.dp_pca starts at the auditor's public start", "[liu2022]") {
  const auto data = spiked(5, 20000, 1);
  Eigen::MatrixXd start = Eigen::MatrixXd::Zero(5, 2);
  start(3, 0) = start(0, 1) = 1;
  auto in = input(*data.samples, 0.8, 1e-5);
  in.start = &start;
  Eigen::VectorXd first_query;
  dpb::core::Rng rng(2, 2);
  DpPca(floored(2)).run_observed(in, rng, [&](const liu2022::StepRecord& r) {
    if (r.t == 1) first_query = r.w_prev;
  });
  CHECK(first_query == start.col(0));
  const Eigen::MatrixXd wrong = Eigen::MatrixXd::Identity(4, 1);
  in.start = &wrong;
  CHECK_THROWS_AS(DpPca(floored(2)).run(in, rng), dpb::InvalidArgument);
}
