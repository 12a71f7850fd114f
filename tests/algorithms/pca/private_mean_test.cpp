#include "algorithms/pca/private_mean.hpp"

#include "algorithms/mechanisms/accountant.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/mechanisms/histogram.hpp"
#include "core/errors.hpp"
#include "liu2022_fixtures.hpp"
#include "support/statistics.hpp"

using namespace dpb::alg;

namespace {
Ledger scratch;  // where releases whose ledger a test does not read are recorded
}  // namespace
using Catch::Matchers::Contains;

namespace {
const Privacy kPrivacy{0.5, 1e-5, Neighbours::replace};
constexpr double kZeta = 0.01;

// Line 7's sigma, written out from the spec (not from the implementation):
// 12 K sqrt(Lambda) log^a(B d/zeta) sqrt(2 d log(2.5/delta)) / (eps B), K = 4, a = 1.
double spec_sigma(double lambda_hat, double B, double d, const Privacy& p) {
  return 12 * 4 * std::sqrt(lambda_hat) * std::log(B * d / kZeta) *
         std::sqrt(2 * d * std::log(2.5 / p.delta)) / (p.epsilon * B);
}
}  // namespace

TEST_CASE("liu2022.private_mean rejects invalid input with what is allowed", "[liu2022]") {
  const Eigen::MatrixXd G = Eigen::MatrixXd::Ones(3, 50);
  PrivateMeanResult out;
  dpb::core::Rng rng(1, 1);
  CHECK_THROWS_WITH(private_mean(G, Privacy{0.9, 1e-5}, kZeta, 1, {}, rng, out, scratch), Contains("eps < 0.9"));
  CHECK_THROWS_WITH(private_mean(G, Privacy{0.5, 0.0}, kZeta, 1, {}, rng, out, scratch), Contains("delta"));
  CHECK_THROWS_WITH(private_mean(G, kPrivacy, kZeta, 0, {}, rng, out, scratch), Contains("top eigenvalue"));
  PrivateMeanOptions leaky;
  leaky.noise_multiplier = 11;  // < 4 x 3: the Gaussian step would no longer cover the sensitivity
  CHECK_THROWS_WITH(private_mean(G, kPrivacy, kZeta, 1, leaky, rng, out, scratch),
                    Contains(">= 4 x truncation_multiplier"));
  Input in;
  in.X = &G;
  in.privacy = kPrivacy;
  CHECK_THROWS_WITH(PrivateMean({}, kZeta, 0).run(in, rng), Contains("lambda_hat"));
}

TEST_CASE("liu2022.private_mean returns the empirical mean plus N(0, sigma^2 I) when nothing is truncated",
          "[liu2022]") {
  // Data fixed: B = 20000 Gaussian vectors (d = 5, Cov = Sigma, lambda_max = 5) and Lambda_hat = 5. Lemma
  // 6.2: nothing is truncated, so mu_hat - mean(g) ~ N(0, sigma^2 I) with sigma of line 7. 200 runs x 5
  // coordinates: KS against N(0, 1) at level 1e-6, and the variance within 0.15 of 1 (5 sd at n = 1000).
  // The noise-free output (mu~) must equal the empirical mean to rounding.
  const auto data = dpb::test::liu2022::spiked(5, 20000, 3);
  const Eigen::VectorXd empirical = data.X.rowwise().mean();
  const double sigma = spec_sigma(5, 20000, 5, kPrivacy);
  std::vector<double> z;
  PrivateMeanResult out;
  for (int run = 0; run < 200; ++run) {
    dpb::core::Rng rng(run, 8);
    private_mean(data.X, kPrivacy, kZeta, 5, {}, rng, out, scratch);
    REQUIRE(out.truncated_entries == 0);
    REQUIRE((out.truncated_mean - empirical).norm() < 1e-12);
    CHECK(out.sigma == Approx(sigma).epsilon(1e-12));
    for (Eigen::Index j = 0; j < 5; ++j) z.push_back((out.mean[j] - empirical[j]) / sigma);
  }
  CHECK(dpb::test::ks_statistic(z, dpb::test::normal_cdf) < dpb::test::ks_critical(z.size(), 1e-6));
  CHECK(std::abs(dpb::test::variance(z) - 1) < 0.15);
}

TEST_CASE("liu2022.private_mean truncates with probability <= zeta at the theory thresholds", "[liu2022]") {
  // Fresh Gaussian data each run (B = 20000, d = 5), Lambda_hat = lambda_max(Cov g) = 5 (inside Lemma 6.2's
  // [2^-1/2, 2^1/2] window). Allowed: 30 zeta + Bernstein slack at 1e-6. The same runs with a 100x smaller
  // truncation multiplier must truncate (the counter is live).
  const auto base = dpb::test::liu2022::spiked(5, 1, 4);
  int runs_truncated = 0, runs_truncated_narrow = 0;
  PrivateMeanResult out;
  PrivateMeanOptions narrow;
  narrow.truncation_multiplier = 0.03;
  narrow.noise_multiplier = 0.12;
  for (int run = 0; run < 30; ++run) {
    dpb::core::Rng data_rng(run, 31), rng(run, 32);
    const Eigen::MatrixXd X = base.model->sample(20000, data_rng);
    private_mean(X, kPrivacy, kZeta, 5, {}, rng, out, scratch);
    if (out.truncated_entries > 0) ++runs_truncated;
    CHECK(out.empty_histograms == 0);
    private_mean(X, kPrivacy, kZeta, 5, narrow, rng, out, scratch);
    if (out.truncated_entries > 0) ++runs_truncated_narrow;
  }
  CHECK(runs_truncated <= 0.01 * 30 + 30 * dpb::test::bernstein_halfwidth(0.01, 30, 1e-6));
  CHECK(runs_truncated_narrow == 30);
}

TEST_CASE("liu2022.private_mean empty coordinate histograms fall back to centre 0 (post-processing)",
          "[liu2022]") {
  // B = 200: the per-coordinate budget (eps/(4 sqrt(2d log(4/delta))), delta/(4d)) = (0.011, 5e-7) makes the
  // release threshold 2 log(2/delta')/(eps' B) + 1/B = 14 > 1, so no histogram releases anything (up to
  // delta'/4 per bin).
  // The centre is then 0 in every coordinate for any data: two different data sets give the same centre.
  const auto a = dpb::test::liu2022::spiked(5, 200, 5), b = dpb::test::liu2022::spiked(5, 200, 6);
  Eigen::MatrixXd shifted = b.X;
  shifted.array() += 7.0;
  PrivateMeanResult out_a, out_b;
  dpb::core::Rng ra(1, 1), rb(1, 1);
  private_mean(a.X, kPrivacy, kZeta, 5, {}, ra, out_a, scratch);
  private_mean(shifted, kPrivacy, kZeta, 5, {}, rb, out_b, scratch);
  CHECK(out_a.empty_histograms == 5);
  CHECK(out_b.empty_histograms == 5);
  CHECK(out_a.centre.isZero(0));
  CHECK(out_b.centre.isZero(0));
}

TEST_CASE("liu2022.private_mean standalone: oracle Lambda_hat, determinism, claim", "[liu2022]") {
  const auto data = dpb::test::liu2022::spiked(5, 20000, 7);
  Input in;
  in.X = &data.X;
  in.privacy = kPrivacy;
  in.oracle = &data.info();
  dpb::core::Rng a(2, 2), b(2, 2);
  const auto ea = PrivateMean({}, kZeta, 0).run(in, a), eb = PrivateMean({}, kZeta, 0).run(in, b);
  REQUIRE(ea.mean);
  CHECK(*ea.mean == *eb.mean);
  CHECK(ea.diagnostics.counters.at("lambda_hat") == Approx(5));
  CHECK(ea.diagnostics.counters.at("sigma") == Approx(spec_sigma(5, 20000, 5, kPrivacy)));
  // The ledger: d = 5 coordinate histograms at Lemma B.4's budget, then the Gaussian at (eps/2, delta/2); the
  // accountant proves the claim (advanced composition of the histograms, basic with the Gaussian).
  REQUIRE(ea.ledger.entries().size() == 2);
  CHECK(ea.ledger.entries()[0].uses == 5);
  CHECK(ea.ledger.entries()[1].calibrated_for.epsilon == 0.25);
  CHECK(account(ea.ledger, ea.claim.delta, Neighbours::replace).epsilon <= 0.5);
  CHECK(ea.claim.epsilon == 0.5);
}

TEST_CASE("liu2022.private_mean centre is the histogram of the records (few or many bins)", "[liu2022]") {
  // d = 1: the centre must be the left end of the largest released bin of stability_histogram run on the
  // record bins with the per-coordinate budget of Lemma B.4, drawn from the same rng state. Data with 3
  // occupied bins (the counted path) and with 200 occupied bins (the sorted fallback).
  const Privacy p{0.5, 1e-5};
  const Budget per = advanced_composition_step_budget({0.25, 5e-6}, 1);
  for (const double spread : {1.0, 400.0}) {
    Eigen::MatrixXd G(1, 30000);
    for (Eigen::Index i = 0; i < G.cols(); ++i) G(0, i) = spread * std::sin(0.37 * static_cast<double>(i));
    PrivateMeanResult out;
    dpb::core::Rng rng(3, 3), replay(3, 3);
    private_mean(G, p, kZeta, 1, {}, rng, out, scratch);
    std::vector<std::int64_t> bins;
    for (Eigen::Index i = 0; i < G.cols(); ++i) bins.push_back(interval_bin(G(0, i), out.tau));
    const auto h = stability_histogram(bins, Privacy{per.epsilon, per.delta}, "replay", scratch, replay);
    if (spread == 1.0)
      CHECK(h.occupied <= 3);
    else
      CHECK(h.occupied > 32);
    const auto best = largest_released_bin(h);
    CHECK(out.centre[0] == (best ? interval_bin_left(best->bin, out.tau) : 0.0));
  }
}

TEST_CASE("liu2022.private_mean releases coordinate by coordinate, as if it read one coordinate at a time",
          "[liu2022]") {
  // The records are read once for every coordinate's bins, and the histograms then released in coordinate
  // order. Replayed here one coordinate at a time from the same rng state: its records' bins through
  // stability_histogram at the Lemma B.4 budget, its centre, its truncated sum in record order. Coordinates
  // with a few bins (counted in a window and a list) and with many (the sorted fallback) alternate, and
  // some entries are truncated.
  const Privacy p{0.5, 1e-5};
  const Eigen::Index d = 11, B = 5000;
  const Budget per = advanced_composition_step_budget({0.25, 5e-6}, d);
  Eigen::MatrixXd G(d, B);
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = 0; i < B; ++i) {
      const double spread = j % 3 == 1 ? 400.0 : 1.0 + static_cast<double>(j);
      // Outliers: +60 (4 bins of tau = 15.3 up) from the first record on, and -130 (9 bins down): bins
      // around the first record's, and far outside the window of counted bins around it.
      G(j, i) = spread * std::sin(0.37 * static_cast<double>(i) + static_cast<double>(j)) +
                (i % 97 == 0 ? 60 : 0) + (i % 89 == 1 ? -130 : 0);
    }
  PrivateMeanResult out;
  dpb::core::Rng rng(8, 1), replay(8, 1);
  private_mean(G, p, kZeta, 1, {}, rng, out, scratch);
  Eigen::Index truncated = 0, many_bins = 0;
  for (Eigen::Index j = 0; j < d; ++j) {
    std::vector<std::int64_t> bins;
    for (Eigen::Index i = 0; i < B; ++i) bins.push_back(interval_bin(G(j, i), out.tau));
    const auto h = stability_histogram(bins, Privacy{per.epsilon, per.delta}, "replay", scratch, replay);
    many_bins += h.occupied > 32;
    const auto best = largest_released_bin(h);
    const double centre = best ? interval_bin_left(best->bin, out.tau) : 0.0;
    CHECK(out.centre[j] == centre);
    double sum = 0;
    for (Eigen::Index i = 0; i < B; ++i) {
      const double clamped = std::clamp(G(j, i), centre - out.half_width, centre + out.half_width);
      truncated += clamped != G(j, i);
      sum += clamped;
    }
    CHECK(out.truncated_mean[j] == sum / static_cast<double>(B));
  }
  CHECK(many_bins >= 3);
  CHECK(truncated > 0);
  CHECK(out.truncated_entries == truncated);
}
