#include "algorithms/mechanisms/histogram.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "algorithms/mechanisms/accountant.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"
#include "support/statistics.hpp"

using namespace dpb::alg;

namespace {
Ledger scratch;  // where releases whose ledger a test does not read are recorded
}  // namespace

namespace {

constexpr double kAlpha = 1e-6;

// P(c/n + Lap(s) >= thr), the exact release probability of a bin with c records.
double release_probability(double p_hat, double s, double thr) {
  return p_hat < thr ? 0.5 * std::exp(-(thr - p_hat) / s) : 1 - 0.5 * std::exp(-(p_hat - thr) / s);
}

std::vector<std::int64_t> with_counts(const std::map<std::int64_t, int>& counts) {
  std::vector<std::int64_t> bins;
  for (const auto& [bin, c] : counts) bins.insert(bins.end(), c, bin);
  return bins;
}

}  // namespace

TEST_CASE("histogram noise scale and threshold follow liu2022 §2.7", "[mechanisms]") {
  // By hand, n = 1000, eps = 1, delta = 0.1:
  //   replace:    s = 2/1000, thr = 2 log(20)/1000 + 1/1000 = 0.0059915 + 0.001
  //   add_remove: s = 1/1000, thr = 1/1000 + log(10)/1000  = 0.001 + 0.0023026
  const Privacy replace{1.0, 0.1, Neighbours::replace}, add_remove{1.0, 0.1, Neighbours::add_remove};
  CHECK(histogram_noise_scale(1000, replace) == Approx(0.002).epsilon(1e-15));
  CHECK(histogram_threshold(1000, replace) == Approx(0.00699146454711).epsilon(1e-11));
  CHECK(histogram_noise_scale(1000, add_remove) == Approx(0.001).epsilon(1e-15));
  CHECK(histogram_threshold(1000, add_remove) == Approx(0.00330258509299).epsilon(1e-11));

  dpb::core::Rng rng(1, 1);
  const std::vector<std::int64_t> one{0};
  CHECK_THROWS_AS(stability_histogram({}, replace, "histogram", scratch, rng), dpb::InvalidArgument);  // n = 0
  CHECK_THROWS_AS(stability_histogram(one, Privacy{0.0, 0.1}, "histogram", scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(stability_histogram(one, Privacy{std::nan(""), 0.1}, "histogram", scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(stability_histogram(one, Privacy{1.0, 0.0}, "histogram", scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(stability_histogram(one, Privacy{1.0, 1.0}, "histogram", scratch, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(histogram_threshold(0, replace), dpb::InvalidArgument);
}

TEST_CASE("the histogram never releases an empty bin", "[mechanisms]") {
  // eps = 50 so that both occupied bins are released often: bin 0 (p_hat 3/4) always, bin 5 (1/4) with
  // probability 0.5 e^{-3} = 0.025. Bins 1..4 hold no record and must never appear.
  const std::vector<std::int64_t> bins{0, 0, 0, 5};
  dpb::core::Rng rng(3, dpb::core::hash_name("empty bins"));
  int bin5_released = 0;
  for (int run = 0; run < 2000; ++run) {
    const auto h = stability_histogram(bins, Privacy{50.0, 0.1}, "histogram", scratch, rng);
    REQUIRE(h.occupied == 2);
    REQUIRE(!h.released.empty());
    CHECK(h.released.front().bin == 0);
    for (const auto& b : h.released) CHECK((b.bin == 0 || b.bin == 5));
    bin5_released += h.released.back().bin == 5;
  }
  CHECK(bin5_released > 0);  // the check above was not vacuous
}

TEST_CASE("release probabilities and noise scale match the spec exactly", "[mechanisms]") {
  // n = 1000: small bins with 1, 3, 5 and 8 records (thresholding decides) and one bin of 983
  // (always released; its noise is measured). Bin indices are far apart, one negative.
  const std::map<std::int64_t, int> counts{{-7, 1}, {2, 3}, {40, 5}, {1'000'000'000'000, 8}, {9, 983}};
  const auto bins = with_counts(counts);
  constexpr int kRuns = 20000;
  for (const auto neighbours : {Neighbours::replace, Neighbours::add_remove}) {
    const Privacy privacy{1.0, 0.1, neighbours};
    const double s = histogram_noise_scale(bins.size(), privacy),
                 thr = histogram_threshold(bins.size(), privacy);
    dpb::core::Rng rng(5, dpb::core::hash_name(to_string(neighbours)));
    std::map<std::int64_t, int> released;
    std::vector<double> big_bin_noise;
    for (int run = 0; run < kRuns; ++run) {
      const auto h = stability_histogram(bins, privacy, "histogram", scratch, rng);
      REQUIRE(h.occupied == counts.size());
      CHECK(h.noise_scale == s);
      CHECK(h.threshold == thr);
      for (const auto& b : h.released) {
        ++released[b.bin];
        CHECK(b.frequency >= thr);
        if (b.bin == 9) big_bin_noise.push_back(b.frequency - 0.983);
      }
    }
    CAPTURE(to_string(neighbours));
    // A singleton is released with probability delta/4 (replace) or delta/2 (add_remove).
    const double singleton = neighbours == Neighbours::replace ? 0.1 / 4 : 0.1 / 2;
    CHECK(release_probability(0.001, s, thr) == Approx(singleton).epsilon(1e-12));
    // Per-bin release frequency vs the exact probability, Bernstein at level 1e-6: half-widths 0.003
    // to 0.019 here. Halving the replace scale drops the singleton's probability from 0.025 to 0.001;
    // doubling the add_remove scale raises it from 0.05 to 0.16.
    for (const auto& [bin, c] : counts) {
      const double p = release_probability(c / 1000.0, s, thr), freq = released[bin] / double(kRuns);
      CAPTURE(bin, c, p, freq);
      CHECK(std::abs(freq - p) <= dpb::test::bernstein_halfwidth(p, kRuns, kAlpha));
    }
    // The big bin is always released (0.983 is > 400 scales above the threshold), so its noise is
    // the full Laplace(s) sample: mean |noise| = s within 6 s / sqrt(R) (|Lap| has sd s), and KS.
    REQUIRE(big_bin_noise.size() == static_cast<std::size_t>(kRuns));
    std::vector<double> magnitude;
    for (double x : big_bin_noise) magnitude.push_back(std::abs(x));
    CHECK(std::abs(dpb::test::mean(magnitude) - s) <= 6 * s / std::sqrt(double(kRuns)));
    const auto laplace_cdf = [&](double x) {
      return x < 0 ? 0.5 * std::exp(x / s) : 1 - 0.5 * std::exp(-x / s);
    };
    CHECK(dpb::test::ks_statistic(big_bin_noise, laplace_cdf) <= dpb::test::ks_critical(kRuns, kAlpha));
  }
}

TEST_CASE("the histogram depends only on the multiset of bins and the seed", "[mechanisms]") {
  std::vector<std::int64_t> bins;
  for (int i = 0; i < 300; ++i) bins.push_back((i * 37) % 11 - 5);  // 11 bins, unsorted
  std::vector<std::int64_t> reversed(bins.rbegin(), bins.rend());
  const Privacy privacy{2.0, 1e-3};
  dpb::core::Rng a(9, 9), b(9, 9), c(9, 9);
  const auto h1 = stability_histogram(bins, privacy, "histogram", scratch, a), h2 = stability_histogram(bins, privacy, "histogram", scratch, b),
             h3 = stability_histogram(reversed, privacy, "histogram", scratch, c);
  REQUIRE(h1.released.size() > 3);
  REQUIRE(h1.released.size() == h2.released.size());
  REQUIRE(h1.released.size() == h3.released.size());
  for (std::size_t i = 0; i < h1.released.size(); ++i) {
    CHECK(h1.released[i].bin == h2.released[i].bin);
    CHECK(h1.released[i].frequency == h2.released[i].frequency);
    CHECK(h1.released[i].bin == h3.released[i].bin);
    CHECK(h1.released[i].frequency == h3.released[i].frequency);
    if (i > 0) CHECK(h1.released[i - 1].bin < h1.released[i].bin);
  }
}

TEST_CASE("largest_released_bin breaks ties to the smallest index and returns BOTTOM on nothing",
          "[mechanisms]") {
  StabilityHistogram h;
  h.released = {{-1, 0.5}, {3, 0.2}, {7, 0.5}};
  REQUIRE(largest_released_bin(h).has_value());
  CHECK(largest_released_bin(h)->bin == -1);
  CHECK(largest_released_bin(h)->frequency == 0.5);
  h.released[2].frequency = 0.6;
  CHECK(largest_released_bin(h)->bin == 7);
  CHECK_FALSE(largest_released_bin(StabilityHistogram{}).has_value());

  // One record, eps = 0.1, delta = 1e-6: released with probability delta/4 = 2.5e-7, so BOTTOM.
  dpb::core::Rng rng(4, 4);
  const std::vector<std::int64_t> one{3};
  const auto lonely = stability_histogram(one, Privacy{0.1, 1e-6}, "histogram", scratch, rng);
  CHECK(lonely.occupied == 1);
  CHECK(lonely.released.empty());
  CHECK_FALSE(largest_released_bin(lonely).has_value());
}

TEST_CASE("log_bin and interval_bin index the bins of liu2022 Alg. 4 and Alg. 5", "[mechanisms]") {
  // log bins [2^{m/4}, 2^{(m+1)/4}), m = floor(4 log2 lambda).
  CHECK(log_bin(1.0) == 0);
  CHECK(log_bin(2.0) == 4);
  CHECK(log_bin(0.5) == -4);
  CHECK(log_bin(1.5) == 2);  // 4 log2 1.5 = 2.34
  CHECK(log_bin(1024.0) == 40);
  CHECK(log_bin(0.0) == zero_log_bin);
  CHECK(log_bin_left(4) == 2.0);
  CHECK(log_bin_left(-4) == 0.5);
  CHECK(log_bin_left(zero_log_bin) == 0.0);
  for (double x : {3.7, 0.01, 1e10, 7e-300}) {
    const auto m = log_bin(x);
    CAPTURE(x, m);
    CHECK(log_bin_left(m) <= x);
    CHECK(x < log_bin_left(m + 1));
  }
  CHECK_THROWS_AS(log_bin(-1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(log_bin(std::nan("")), dpb::InvalidArgument);
  CHECK_THROWS_AS(log_bin(std::numeric_limits<double>::infinity()), dpb::InvalidArgument);

  // interval bins (m tau, (m+1) tau], m = ceil(x/tau) - 1: left-open, right-closed.
  CHECK(interval_bin(0.5, 1.0) == 0);
  CHECK(interval_bin(1.0, 1.0) == 0);
  CHECK(interval_bin(1.01, 1.0) == 1);
  CHECK(interval_bin(0.0, 1.0) == -1);
  CHECK(interval_bin(-0.5, 1.0) == -1);
  CHECK(interval_bin(-1.0, 1.0) == -2);
  CHECK(interval_bin(2.5, 0.5) == 4);  // (2, 2.5]
  CHECK(interval_bin_left(4, 0.5) == 2.0);
  CHECK_THROWS_AS(interval_bin(1.0, 0.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(interval_bin(std::nan(""), 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(interval_bin(1e300, 1e-10), dpb::InvalidArgument);  // no int64 bin index
}

TEST_CASE("interval_bins gives interval_bin's bins, and its error at the first value it refuses",
          "[mechanisms]") {
  // Exact multiples (the right-closed edge), their neighbours, -0, subnormals, the largest binnable ratios
  // and random values, in runs of every length up to 40 (the vector loop, its tail, both at once).
  std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, -3.0, 5e-324, -5e-324};
  values.push_back(0x1.fffffffffffffp59);  // x / tau just below 2^62
  values.push_back(-0x1.fffffffffffffp59);
  for (const double m : {1.0, 7.0, -7.0, 1e15, -1e15, 0x1p52, -0x1p52})
    for (const double v : {m, std::nextafter(m, 0.0), std::nextafter(m, 2 * m)}) values.push_back(v * 0.25);
  std::mt19937_64 gen(5);
  std::normal_distribution<double> normal(0, 3);
  while (values.size() < 200) values.push_back(normal(gen));
  const double tau = 0.25;
  for (std::size_t length = 1; length <= 40; ++length)
    for (std::size_t start = 0; start + length <= values.size(); start += 17) {
      const std::span<const double> x(values.data() + start, length);
      std::vector<std::int64_t> bins(length);
      interval_bins(x, tau, bins);
      for (std::size_t j = 0; j < length; ++j) {
        CAPTURE(x[j]);
        CHECK(bins[j] == interval_bin(x[j], tau));
      }
    }
  // A refused value anywhere in a run: the same error as interval_bin's for the first one.
  for (const double bad :
       {std::nan(""), std::numeric_limits<double>::infinity(), 0x1p62 * tau, -0x1p62 * tau})
    for (const std::size_t at : {std::size_t{0}, std::size_t{5}, std::size_t{12}}) {
      std::vector<double> x(values.begin(), values.begin() + 13);
      x[at] = bad;
      x[12] = std::nan("1");  // a later refusal must not be the one reported
      std::vector<std::int64_t> bins(x.size());
      std::string expected;
      try {
        interval_bin(x[at], tau);
      } catch (const dpb::InvalidArgument& e) {
        expected = e.what();
      }
      CAPTURE(bad, at);
      CHECK_THROWS_WITH(interval_bins(x, tau, bins), expected);
    }
  std::vector<std::int64_t> all(values.size());
  CHECK_THROWS_WITH(interval_bins(values, 0.0, all), Catch::Contains("bin width tau must be finite and > 0"));
}

TEST_CASE("bin_indices gives the bins of x / w, also where x times 1 / w would round across an edge",
          "[mechanisms]") {
  // Widths that are not powers of two (so x (1 / w) and x / w round differently), each with the multiples
  // k w, their neighbours, +-0 and random values; widths near 2^+-1000 take the division throughout.
  std::mt19937_64 gen(11);
  std::normal_distribution<double> normal(0, 1);
  std::size_t multiply_wrong = 0;  // edges where a bin taken from x (1 / w) would be wrong: this test's case
  for (const double w : {0.1, 0.3, 1.0 / 3, 0.7, 1e-3, 12345.678, 3 * 0x1p-1001, 1.5 * 0x1p999}) {
    std::vector<double> x = {0.0, -0.0};
    for (int k = -400; k <= 400; ++k) {
      const double m = k * w;
      x.insert(x.end(), {m, std::nextafter(m, -INFINITY), std::nextafter(m, INFINITY)});
    }
    while (x.size() < 3000) x.push_back(normal(gen) * 50 * w);
    std::shuffle(x.begin() + 2, x.end(), gen);
    for (const double v : x) multiply_wrong += std::floor(v * (1 / w)) != std::floor(v / w);
    CAPTURE(w);
    for (const BinClosed closed : {BinClosed::left, BinClosed::right})
      // Runs of every length up to 24, so that some hold only entries far from an edge (the product
      // decides them) and others one near an edge (the whole run divides).
      for (std::size_t length = 1, start = 0; start + length <= x.size();
           start += length, length = length % 24 + 1) {
        const std::span<const double> run(x.data() + start, length);
        std::vector<std::int64_t> bins(length);
        REQUIRE(bin_indices(run, w, closed, bins));
        for (std::size_t j = 0; j < length; ++j) {
          const double q = run[j] / w;
          const auto expected =
              static_cast<std::int64_t>(closed == BinClosed::left ? std::floor(q) : std::ceil(q) - 1);
          CAPTURE(run[j], closed == BinClosed::left);
          CHECK(bins[j] == expected);
        }
      }
  }
  CHECK(multiply_wrong > 1000);
}

TEST_CASE("every_occupied_bin (the mutant zoo's seam) skips only the threshold test", "[mechanisms]") {
  // Five singleton bins and one of 5 records, n = 10, eps = 0.5, delta = 1e-6: noise Lap(0.4) and the
  // threshold 2 log(2e6)/5 + 0.1 = 5.9 far above any p_hat, so thresholded releases a bin with probability
  // <= 0.5 e^{-5.4/0.4} < 1e-6 per bin per run. Without the test every occupied bin is released, singletons
  // included, with the very noise the thresholded run draws from the same stream.
  const std::vector<std::int64_t> bins{-3, 0, 4, 9, 12, 20, 20, 20, 20, 20};
  const std::vector<BinCount> counts{{-3, 1}, {0, 1}, {4, 1}, {9, 1}, {12, 1}, {20, 5}};
  const Privacy privacy{0.5, 1e-6};
  int thresholded_releases = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    dpb::core::Rng a(seed, 7), b(seed, 7), c(seed, 7), e(seed, 7);
    const auto by_default = stability_histogram(bins, privacy, "histogram", scratch, a);
    const auto all = stability_histogram(bins, privacy, "histogram", scratch, b, BinRelease::every_occupied_bin);
    const auto all_from_counts =
        stability_histogram_from_counts(counts, bins.size(), privacy, "histogram", scratch, c, BinRelease::every_occupied_bin);
    const auto explicit_threshold = stability_histogram(bins, privacy, "histogram", scratch, e, BinRelease::thresholded);
    thresholded_releases += static_cast<int>(by_default.released.size());
    CHECK(explicit_threshold.released.size() == by_default.released.size());
    REQUIRE(all.released.size() == counts.size());
    REQUIRE(all_from_counts.released.size() == counts.size());
    CHECK(all.occupied == counts.size());
    CHECK(all.threshold == by_default.threshold);
    for (std::size_t i = 0; i < counts.size(); ++i) {
      CHECK(all.released[i].bin == counts[i].bin);
      CHECK(all_from_counts.released[i].bin == counts[i].bin);
      CHECK(all_from_counts.released[i].frequency == all.released[i].frequency);
    }
    for (const auto& released : by_default.released) {  // the thresholded release is a subset, same noise
      const auto same = std::find_if(all.released.begin(), all.released.end(),
                                     [&](const HistogramBin& x) { return x.bin == released.bin; });
      REQUIRE(same != all.released.end());
      CHECK(same->frequency == released.frequency);
    }
  }
  CHECK(thresholded_releases == 0);
}

TEST_CASE("halved_threshold (the mutant zoo's seam) releases exactly the bins at or above half the threshold",
          "[mechanisms][privacy]") {
  // The same noise as every_occupied_bin draws (same stream); the bins released are those whose noisy
  // frequency reaches threshold / 2, and the ledger records that threshold, so the accountant charges the
  // delta it gives: 2 exp(-(T/2 - 1/n) eps n / 2), about sqrt(delta), not delta.
  // n = 10, eps = 2, delta = 1e-3: noise Lap(0.1), threshold T = 2 log(2000)/20 + 0.1 = 0.86, so the
  // 5-record bin (p_hat 0.5) mostly lands between T/2 and T.
  const std::vector<std::int64_t> bins{-3, 0, 4, 9, 12, 20, 20, 20, 20, 20};
  const Privacy privacy{2, 1e-3};
  std::size_t between = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    dpb::core::Rng a(seed, 7), b(seed, 7);
    const auto every = stability_histogram(bins, privacy, "histogram", scratch, a, BinRelease::every_occupied_bin);
    Ledger ledger;
    const auto halved = stability_histogram(bins, privacy, "histogram", ledger, b, BinRelease::halved_threshold);
    std::vector<std::int64_t> expected;
    for (const auto& bin : every.released) {
      if (bin.frequency >= halved.threshold / 2) expected.push_back(bin.bin);
      between += bin.frequency >= halved.threshold / 2 && bin.frequency < halved.threshold;
    }
    std::vector<std::int64_t> released;
    for (const auto& bin : halved.released) released.push_back(bin.bin);
    CHECK(released == expected);
    REQUIRE(ledger.entries().size() == 1);
    CHECK(ledger.entries()[0].truncation == halved.threshold / 2);
    const EntryCost cost = entry_cost(ledger.entries()[0], Neighbours::replace);
    const double n = 10, excess = (halved.threshold / 2 - 1 / n) * privacy.epsilon * n;
    CHECK(cost.delta == Approx(2 * std::exp(-excess / 2)).epsilon(1e-9));
    CHECK(cost.delta > 10 * privacy.delta);  // 0.074: about sqrt(delta) = 0.03
  }
  CHECK(between > 0);
}

TEST_CASE("stability_histogram records its release in the ledger", "[mechanisms][privacy]") {
  // The entry carries what the accountant needs: l1 sensitivity 2/n of the frequencies under replace-one,
  // the noise scale and threshold the release used, the record count and the budget it was calibrated for.
  Ledger ledger;
  dpb::core::Rng rng(5, 6);
  const std::vector<std::int64_t> bins{4, 4, 4, 7, 9};
  const Privacy privacy{0.5, 1e-4, Neighbours::replace};
  const auto h = stability_histogram(bins, privacy, "bins", ledger, rng);
  REQUIRE(ledger.entries().size() == 1);
  const LedgerEntry& e = ledger.entries().front();
  CHECK(e.step == "bins");
  CHECK(e.mechanism == Mechanism::stability_histogram);
  CHECK(e.sensitivity == Approx(2.0 / 5));
  CHECK(e.noise_scale == h.noise_scale);
  CHECK(e.truncation == h.threshold);
  CHECK(e.records == 5);
  CHECK(e.calibrated_for.epsilon == 0.5);
  CHECK(e.calibrated_for.delta == 1e-4);
}

TEST_CASE("same_log_bin: true only where every value between the ends has the same log bin", "[mechanisms]") {
  // Half the intervals start within four ulps of a bin edge 2^(m/4) (as exp2 computes it), half anywhere;
  // their widths run from 1e-15 to 1 of lo, evenly in log.
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int said_same = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int m = static_cast<int>(unit(gen) * 400) - 200;
    double lo = std::exp2(m / 4.0 + (trial % 2 ? unit(gen) / 4 : 0.0));
    for (int ulps = static_cast<int>(unit(gen) * 9) - 4; ulps != 0; ulps += ulps > 0 ? -1 : 1)
      lo = std::nextafter(lo, ulps > 0 ? 1e300 : 0.0);
    const double hi = lo * (1 + std::pow(10.0, -15 + 15 * unit(gen)));
    if (!same_log_bin(lo, hi)) continue;
    ++said_same;
    const auto bin = log_bin(lo);
    CAPTURE(lo, hi);
    CHECK(log_bin(hi) == bin);
    CHECK(log_bin(std::nextafter(lo, hi)) == bin);
    CHECK(log_bin(std::nextafter(hi, lo)) == bin);
    CHECK(log_bin(lo + unit(gen) * (hi - lo)) == bin);
  }
  // It does decide: 87% of the widths are below a bin's tenth, and about three quarters of those intervals
  // lie clear of an edge (about 13000 expected).
  CHECK(said_same > 8000);
  CHECK(same_log_bin(1.1, 1.12));       // bin 0 is [1, 2^(1/4) = 1.189)
  CHECK_FALSE(same_log_bin(1.1, 1.2));  // across 2^(1/4)
  CHECK(same_log_bin(0.0, 0.0));
  CHECK_FALSE(same_log_bin(0.0, 1e-300));
  CHECK_FALSE(same_log_bin(2.0, 1.0));
}

// liu2022 Alg. 4 releases only the log bin of each subset's lambda_max / b, so its bisection stops once the
// bin is decided: the bin must be the one the bisection run to rounding level gives, also for a lambda_max
// within ulps of a bin's edge.
TEST_CASE("liu2022 Alg. 4: lambda_max found only as far as its log bin gives the full bisection's bin",
          "[mechanisms]") {
  dpb::core::Rng rng(12, 3);
  dpb::core::LargestEigenvalueWorkspace ws;
  const double b = 270;
  const dpb::core::EigenvalueDecided decided = [b](double lo, double hi) {
    return same_log_bin(std::max(0.0, lo) / b, std::max(0.0, hi) / b);
  };
  for (int trial = 0; trial < 40; ++trial) {
    const Eigen::MatrixXd A = dpb::core::standard_normal_matrix(rng, 50, 60);
    const Eigen::MatrixXd S = A * A.transpose();
    const double full = dpb::core::largest_eigenvalue(S, ws);
    const double edge = std::exp2((trial % 9 - 4) / 4.0) * b;  // lambda_max / b moved next to a bin edge
    for (const double offset : {-0x1p-50, -0x1p-52, 0.0, 0x1p-52, 0x1p-50, 1e-3}) {
      const Eigen::MatrixXd scaled = S * (edge / full * (1 + offset));
      const double exact = dpb::core::largest_eigenvalue(scaled, ws);
      const double early = dpb::core::largest_eigenvalue(scaled, ws, decided);
      CAPTURE(trial, offset, exact, early);
      CHECK(log_bin(std::max(0.0, early) / b) == log_bin(std::max(0.0, exact) / b));
    }
  }
}
