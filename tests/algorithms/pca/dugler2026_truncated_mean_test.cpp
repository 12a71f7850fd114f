#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "algorithms/pca/dugler2026_support.hpp"
#include "algorithms/pca/dugler2026_truncated_mean.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

using namespace dpb;
using namespace dpb::alg::dugler2026;
namespace dt = dpb::test::dugler;

TEST_CASE("dugler2026 TRUNCATEDMEAN bins are left-closed: bin i holds i w <= x < (i+1) w", "[dugler2026]") {
  CHECK(left_closed_bin(0.0, 1.0) == 0);
  CHECK(left_closed_bin(1.0, 1.0) == 1);  // liu2022's interval_bin would give 0
  CHECK(left_closed_bin(0.999, 1.0) == 0);
  CHECK(left_closed_bin(-0.5, 1.0) == -1);
  CHECK(left_closed_bin(-1.0, 1.0) == -1);
  CHECK(left_closed_bin(5.0, 2.0) == 2);
  CHECK_THROWS_AS(left_closed_bin(1.0, 0.0), InvalidArgument);
  CHECK_THROWS_AS(left_closed_bin(std::nan(""), 1.0), InvalidArgument);
}

TEST_CASE("dugler2026.truncated_mean rejects infeasible sizes naming the required m", "[dugler2026]") {
  // d = 3, k = 1, eps = 1, delta = 0.01: center budget (1/2, 0.005) over dk = 3 coordinates gives
  // (1/6, 1/600) per histogram; threshold count 1 + 12 log(1200) = 86.08; margin 2 -> m >= 173.
  CHECK(truncated_mean_min_samples(3, 1, alg::Budget{0.5, 0.005}, 2.0) == 173);
  const auto data = dt::shifted(3, 1, 0.5, 100, 1);
  core::Rng rng(1, 1);
  CHECK_THROWS_WITH(truncated_mean_release(data.input(1, 1, 0.01), TruncatedMeanParams{}, rng),
                    Catch::Contains("m >= 173"));
  auto in = data.input(1, 1, 0.01);
  in.oracle = nullptr;
  const auto big = dt::shifted(3, 1, 0.5, 400, 1);
  in.samples = big.samples.get();
  CHECK_THROWS_WITH(truncated_mean_release(in, TruncatedMeanParams{}, rng), Catch::Contains("Lhat"));
  Eigen::MatrixXd mean(3, 1);
  TruncatedMeanWorkspace ws;
  alg::Ledger ledger;
  CHECK_THROWS_AS(truncated_mean(Eigen::MatrixXd::Ones(3, 4), 1, 0.0, 1.0, alg::Budget{1, 0.1}, "c", ledger,
                                 mean, ws, rng),
                  InvalidArgument);
}

TEST_CASE("dugler2026 TRUNCATEDMEAN known answer: concentrated data are not truncated, outliers are clamped",
          "[dugler2026]") {
  // 1000 copies of 2.3 per coordinate and one outlier 100: the bin [2, 3) (w = 1) holds 1000 records,
  // far above the threshold 1 + 2 log(2/delta_c)/eps_c = 1 + 4 log(4/0.01) = 25 (budget (1, 0.02) over
  // dk = 2), so the center is its left end 2; R = 1 keeps 2.3, clamps 100 to 3.
  Eigen::MatrixXd G = Eigen::MatrixXd::Constant(2, 1001, 2.3);
  G(0, 1000) = 100;
  Eigen::MatrixXd mean(2, 1);
  TruncatedMeanWorkspace ws;
  core::Rng rng(3, 3);
  alg::Ledger ledger;
  const auto rep = truncated_mean(G, 1, 1.0, 1.0, alg::Budget{1, 0.02}, "centers", ledger, mean, ws, rng);
  CHECK(rep.truncated_entries == 1);
  // The dk = 2 coordinate histograms on the same 1001 records compose to the center budget (1, 0.02).
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries()[0].uses == 2);
  CHECK_FALSE(ledger.entries()[0].disjoint);
  CHECK(ledger.entries()[0].records == 1001);
  CHECK(dt::within(alg::account(ledger, 0.02, alg::Neighbours::replace), 1, 0.02));
  CHECK_FALSE(dt::within(alg::account(ledger, 0.02, alg::Neighbours::replace), 0.9, 0.02));
  CHECK(rep.empty_histograms == 0);
  CHECK(mean(0, 0) == Approx((1000 * 2.3 + 3.0) / 1001));
  CHECK(mean(1, 0) == Approx(2.3));
  CHECK(ws.centers(0, 0) == 2.0);
}

TEST_CASE("dugler2026 TRUNCATEDMEAN empty histograms fall back to center 0 (post-processing only)",
          "[dugler2026]") {
  // Entry l of every coordinate is 3 l w: all records in distinct bins (count 1), released only when
  // Lap(2/eps_c) > 2 log(2/delta_c)/eps_c: probability delta_c/4 = 2.5e-8 per bin. So every coordinate
  // is empty, the center is 0 whatever the data, and the mean is that of clamp(x, -R, R).
  const long m = 50;
  Eigen::MatrixXd G(2, 2 * m);
  for (long l = 0; l < 2 * m; ++l) G.col(l).setConstant(3.0 * static_cast<double>(l / 2) * (l % 2 ? -1 : 1));
  Eigen::MatrixXd mean(2, 2);
  TruncatedMeanWorkspace ws;
  core::Rng rng(1, 1);
  alg::Ledger ledger;
  const auto rep = truncated_mean(G, 2, 10.0, 1.0, alg::Budget{1, 4e-7}, "centers", ledger, mean, ws, rng);
  CHECK(rep.empty_histograms == 4);
  CHECK(ws.centers.isZero());
  Eigen::MatrixXd expect = Eigen::MatrixXd::Zero(2, 2);
  for (long l = 0; l < m; ++l) expect += G.middleCols(2 * l, 2).cwiseMax(-10.0).cwiseMin(10.0) / m;
  CHECK(mean.isApprox(expect));
}

TEST_CASE(
    "dugler2026.truncated_mean: no truncation on model data, noise matches 2R sqrt(dk)/m at (eps/2, delta/2)",
    "[dugler2026]") {
  // dugler_shifted d = 3, k = 1, sigma = 0.5, m = 4000: Lhat = lambda_1^2 gamma^2 = 2 sigma^4 (oracle),
  // R = 3 sqrt(Lhat) log(m d k / zeta) = 3 * 0.354 * 14 = 14.9, while entries of A Q deviate from their
  // mean by sigma^2 |g g'| (Gaussian products, scale 0.25): exceeding R - 2 sqrt(Lhat) (the center error
  // of Lemma 11) has probability ~ exp(-50), so across 10 runs no entry is truncated (Lemma 11, <= zeta).
  const auto data = dt::shifted(3, 1, 0.5, 4000, 4);
  int runs_truncated = 0;
  for (std::uint64_t s = 0; s < 10; ++s) {
    core::Rng rng(s, 11);
    const auto e = truncated_mean_release(data.input(1, 1, 0.01), TruncatedMeanParams{}, rng);
    runs_truncated += e.diagnostics.counters.at("truncated_entries") > 0;
    const double R = e.diagnostics.counters.at("R");
    CHECK(e.diagnostics.counters.at("Lhat") == Approx(2 * std::pow(0.5, 4)));
    CHECK(R == Approx(3 * std::sqrt(2 * std::pow(0.5, 4)) * std::log(4000 * 3 / 0.01)));
    CHECK(e.diagnostics.counters.at("sigma") ==
          Approx(2 * R * std::sqrt(3.0) / 4000 * std::sqrt(2 * std::log(1.25 / 0.005)) / 0.5));
    CHECK(e.mean->size() == 3);
    // Ledger: the dk = 3 centers at (eps/6, delta/6) and the Gaussian for 2 R sqrt(dk)/m at (eps/2,
    // delta/2), all on the same records: they compose to the claim (Lemma 2 steps 2-4).
    REQUIRE(e.ledger.entries().size() == 2);
    CHECK(e.ledger.entries()[0].uses == 3);
    CHECK(e.ledger.entries()[1].sensitivity == Approx(2 * R * std::sqrt(3.0) / 4000));
    CHECK(e.ledger.entries()[1].noise_scale == e.diagnostics.counters.at("sigma"));
    CHECK_NOTHROW(alg::check_claim(e.ledger, e.claim, "dugler2026.truncated_mean"));
  }
  CHECK(runs_truncated == 0);
  // Without the clamp (the mutant zoo's seam) one record moves the mean without bound: the ledger records
  // that sensitivity and overspends the claim, though the noise is the same.
  TruncatedMeanParams broken;
  broken.truncate = false;
  core::Rng a(0, 11), b(0, 11);
  const auto e = truncated_mean_release(data.input(1, 1, 0.01), TruncatedMeanParams{}, a);
  const auto u = truncated_mean_release(data.input(1, 1, 0.01), broken, b);
  CHECK(u.ledger.entries()[1].noise_scale == e.ledger.entries()[1].noise_scale);
  CHECK(u.ledger.entries()[1].sensitivity == std::numeric_limits<double>::infinity());
  CHECK_THROWS_AS(alg::check_claim(u.ledger, u.claim, "mutant"), alg::PrivacyOverspend);
}

namespace {

// Algorithm 5 written the straightforward way: per coordinate (j, r), in that order, the bins of all m
// entries through the sorting stability_histogram, then the clamped mean.
TruncatedMeanReport reference_truncated_mean(const Eigen::MatrixXd& G, long k, double R, double Lhat,
                                             const alg::Budget& center, Eigen::MatrixXd& mean,
                                             core::Rng& rng) {
  const long d = G.rows(), m = G.cols() / k;
  const double w = std::sqrt(Lhat);
  const double dk = static_cast<double>(d * k);
  const alg::Privacy per{center.epsilon / dk, center.delta / dk, alg::Neighbours::replace};
  TruncatedMeanReport rep;
  alg::Ledger ledger;
  Eigen::MatrixXd c(d, k);
  for (long j = 0; j < d; ++j)
    for (long r = 0; r < k; ++r) {
      std::vector<std::int64_t> bins;
      for (long l = 0; l < m; ++l) bins.push_back(left_closed_bin(G(j, l * k + r), w));
      const auto best = alg::largest_released_bin(alg::stability_histogram(bins, per, "c", ledger, rng));
      c(j, r) = best ? static_cast<double>(best->bin) * w : 0.0;
      rep.empty_histograms += !best;
    }
  mean = Eigen::MatrixXd::Zero(d, k);
  for (long l = 0; l < m; ++l)
    for (long r = 0; r < k; ++r)
      for (long j = 0; j < d; ++j) {
        const double x = G(j, l * k + r), y = std::clamp(x, c(j, r) - R, c(j, r) + R);
        rep.truncated_entries += (y != x);
        mean(j, r) += y;
      }
  mean /= static_cast<double>(m);
  return rep;
}

}  // namespace

TEST_CASE(
    "dugler2026 TRUNCATEDMEAN (windowed counts, chunks) equals the straightforward algorithm bit for bit",
    "[dugler2026]") {
  // Coordinates chosen to exercise every counting path: concentrated values far from 0 (the window is
  // placed at the first chunk's median), negative values, far outliers on both sides (overflow below and
  // above the 16-bin window), a coordinate spread over ~2000 bins (mostly overflow); then, in a matrix of
  // their own, a constant coordinate with a value on a bin's edge and one whose median bin is beyond 2^51,
  // where a window cannot start (it is clamped to max_window_start). The fast path decides a group of
  // records only if it decides every value, so the first matrix is counted by it and the second by the
  // exact path.
  const long k = 2, m = 20000;
  const double Lhat = 0.25, w = 0.5;
  core::Rng data(21, 1);
  Eigen::MatrixXd G(6, k * m);
  for (long l = 0; l < m; ++l)
    for (long r = 0; r < k; ++r) {
      const double g = core::standard_normal(data);
      G(0, l * k + r) = 40.0 + g;                                     // about bin 80
      G(1, l * k + r) = -3.0 + 2 * g;                                 // negative bins
      G(2, l * k + r) = l % 997 == 0 ? (l % 2 ? 1e6 : -1e6) : g;      // outliers both sides
      G(3, l * k + r) = core::uniform(data, -500.0, 500.0);           // ~2000 bins
      G(4, l * k + r) = r == 0 ? 0.75 : -w;                           // one bin (and a bin edge)
      G(5, l * k + r) = (r == 0 ? 1e16 : -1e16) + 2 * std::round(g);  // bins near +-2e16
    }
  for (const Eigen::MatrixXd& part : {Eigen::MatrixXd(G.topRows(4)), Eigen::MatrixXd(G.bottomRows(2))}) {
    const long d = part.rows();
    const double dk = static_cast<double>(d * k);
    const alg::Budget center{dk, 0.01 * dk};  // per coordinate (1, 0.01): bins of >= ~12 records are released
    for (const double R : {0.3, 2.0, 1e7}) {
      INFO("d = " << d << ", R = " << R);
      core::Rng a(22, 1), b(22, 1);
      TruncatedMeanWorkspace ws;
      Eigen::MatrixXd mean(d, k), ref;
      alg::Ledger ledger;
      const auto rep = truncated_mean(part, k, R, Lhat, center, "c", ledger, mean, ws, a);
      const auto ref_rep = reference_truncated_mean(part, k, R, Lhat, center, ref, b);
      CHECK(mean == ref);
      CHECK(rep.truncated_entries == ref_rep.truncated_entries);
      CHECK(rep.empty_histograms == ref_rep.empty_histograms);
      CHECK(rep.clamp_pass == (R < 1e7));  // at 1e7 no value leaves its interval: the first pass's sums serve
      CHECK(a() == b());                   // the same Laplace draws, in the same order
    }
  }
  // The streamed form on products A_l Q, read twice, equals the stored form.
  const alg::Budget center{8.0, 0.08};
  const auto model = dt::shifted(4, 2, 0.5, 3000, 3);
  core::Rng qr(23, 1);
  const Eigen::MatrixXd Q = core::haar_frame(qr, 4, 2);
  Eigen::MatrixXd stored(4, 2 * 3000), buffer, kk, m1(4, 2), m2(4, 2);
  for (long l = 0; l < 3000; ++l) model.samples->apply(l, Q, stored.middleCols(2 * l, 2));
  MatrixChunks streamed(*model.samples, 0, 3000, Q, false, buffer, kk);
  TruncatedMeanWorkspace ws;
  core::Rng a(24, 1), b(24, 1);
  alg::Ledger l1, l2;
  truncated_mean(streamed, 1.0, 0.1, center, "c", l1, m1, ws, a);
  truncated_mean(stored, 2, 1.0, 0.1, center, "c", l2, m2, ws, b);
  REQUIRE(l1.entries().size() == 1);
  CHECK(l1.entries()[0].uses == 8);  // dk histograms, merged
  CHECK(l2.entries()[0].uses == 8);
  CHECK(m1 == m2);
  CHECK(a() == b());
}

TEST_CASE(
    "dugler2026 TRUNCATEDMEAN equals the straightforward algorithm on strided matrices and on more than 64 "
    "coordinates",
    "[dugler2026]") {
  // The top rows of a taller matrix (columns not adjacent: every per-column path) and d k = 80 coordinates
  // (one record per counting group, its offsets padded to 128), with and without the clamp pass.
  const long d = 40, k = 2, m = 3000;
  core::Rng data(26, 1);
  Eigen::MatrixXd tall(d + 3, k * m);
  for (long c = 0; c < tall.cols(); ++c)
    for (long j = 0; j < tall.rows(); ++j)
      tall(j, c) = static_cast<double>(j % 7) + static_cast<double>(1 + j % 3) * core::standard_normal(data);
  const Eigen::MatrixXd dense = tall.topRows(d);
  const Eigen::Ref<const Eigen::MatrixXd> strided(tall.topRows(d));
  REQUIRE(strided.outerStride() == d + 3);  // bound without a copy
  const alg::Budget center{80.0, 0.8};      // per coordinate (1, 0.01)
  for (const bool use_strided : {false, true})
    for (const double R : {2.0, 1e7}) {
      core::Rng a(27, 1), b(27, 1);
      TruncatedMeanWorkspace ws;
      Eigen::MatrixXd mean(d, k), ref;
      alg::Ledger ledger;
      INFO("strided " << use_strided << ", R = " << R);
      const auto rep = use_strided ? truncated_mean(strided, k, R, 1.0, center, "c", ledger, mean, ws, a)
                                   : truncated_mean(dense, k, R, 1.0, center, "c", ledger, mean, ws, a);
      const auto ref_rep = reference_truncated_mean(dense, k, R, 1.0, center, ref, b);
      CHECK(mean == ref);
      CHECK(rep.truncated_entries == ref_rep.truncated_entries);
      CHECK(rep.empty_histograms == ref_rep.empty_histograms);
      CHECK(rep.clamp_pass == (R < 1e7));
      CHECK(a() == b());
    }
  // No rows: a clean error, not a division by zero.
  Eigen::MatrixXd mean(0, 2);
  TruncatedMeanWorkspace ws;
  alg::Ledger ledger;
  core::Rng rng(1, 1);
  CHECK_THROWS_WITH(truncated_mean(Eigen::MatrixXd(0, 10), 2, 1.0, 1.0, center, "c", ledger, mean, ws, rng),
                    Catch::Contains("d >= 1 rows"));
}

// The clamp pass is skipped only where the clamp would move nothing: a value on an interval's end stays,
// one just past it is moved. Either way the mean is the straightforward algorithm's, bit for bit.
TEST_CASE("dugler2026 TRUNCATEDMEAN reads the matrices again only when the clamp moves a value",
          "[dugler2026]") {
  // One coordinate, w = 0.5: 3000 values 0.75 put the center at bin 1, gbar = 0.5; 7 values 0.25 sit
  // on the lower end of [gbar - R, gbar + R] for R = 0.25, where 0.75 is the upper end.
  const long m = 3007;
  Eigen::MatrixXd G = Eigen::MatrixXd::Constant(1, m, 0.75);
  for (long l = 0; l < 7; ++l) G(0, 400 * l) = 0.25;
  const alg::Budget center{10.0, 0.1};
  // 0.25 -+ 2^-50: gbar -+ R is exact, an interval a few ulps narrower or wider than the values' range.
  for (const double R : {0.25, 0.25 - 0x1p-50, 0.25 + 0x1p-50}) {
    core::Rng a(25, 1), b(25, 1);
    TruncatedMeanWorkspace ws;
    Eigen::MatrixXd mean(1, 1), ref;
    alg::Ledger ledger;
    const auto rep = truncated_mean(G, 1, R, 0.25, center, "c", ledger, mean, ws, a);
    const auto ref_rep = reference_truncated_mean(G, 1, R, 0.25, center, ref, b);
    INFO("R = " << R);
    CHECK(mean == ref);
    CHECK(rep.truncated_entries == ref_rep.truncated_entries);
    CHECK(rep.clamp_pass == (R < 0.25));
    CHECK(ref_rep.truncated_entries == (R < 0.25 ? m : 0));
  }
}

// The bins of a chunk are computed in one run after one range check for the whole run (so that the run
// vectorises): an entry whose x / w is NaN or beyond 2^62, anywhere in a chunk, must still stop the release
// with left_closed_bin's error, and a bound just inside must not. m = 12000 records of 6 values make three
// chunks: the first binned whole (for the windows' medians), the others straight into window offsets.
TEST_CASE("dugler2026 TRUNCATEDMEAN refuses an entry too large or NaN to bin, wherever it sits",
          "[dugler2026]") {
  const long d = 3, k = 2, m = 12000;
  const alg::Budget center{10.0, 0.1};
  for (const long at : {0L, 7L, d * k * m / 2 + 1, d * k * m - 1}) {
    for (const double bad : {std::nan(""), 0x1.0p62, -0x1.0p62, std::numeric_limits<double>::infinity()}) {
      Eigen::MatrixXd G = Eigen::MatrixXd::Zero(d, k * m), mean(d, k);
      G(at) = bad;  // w = 1: x / w = x
      TruncatedMeanWorkspace ws;
      alg::Ledger ledger;
      core::Rng rng(1, 1);
      INFO("entry " << at << " = " << bad);
      CHECK_THROWS_WITH(truncated_mean(G, k, 1.0, 1.0, center, "c", ledger, mean, ws, rng),
                        Catch::Contains("is not finite or too large"));
      G(at) = std::nextafter(0x1.0p62, 0.0);  // the largest |x / w| that bins
      CHECK_NOTHROW(truncated_mean(G, k, 1.0, 1.0, center, "c", ledger, mean, ws, rng));
    }
  }
}
