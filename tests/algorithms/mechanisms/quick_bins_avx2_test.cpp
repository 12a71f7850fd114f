// The four-lane binning (algorithms/mechanisms/quick_bins_avx2.hpp) must give the scalar path's bins and
// window offsets bit for bit wherever it decides, and refuse what it cannot decide. Called directly, so that
// it is tested on every CPU with AVX2, also where the AVX-512 clones are preferred.
#include "algorithms/mechanisms/quick_bins_avx2.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "algorithms/mechanisms/histogram.hpp"

namespace avx2_bins = dpb::alg::avx2_bins;
using dpb::alg::outside_window;
using dpb::alg::window_offset;

namespace {

bool has_avx2() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

// floor(x / w) by the division, as left_closed_bin defines it.
std::int64_t bin_of(double x, double w) { return static_cast<std::int64_t>(std::floor(x / w)); }

}  // namespace

TEST_CASE("four-lane bins and window offsets are the scalar path's, and edges are refused", "[mechanisms]") {
  if (!has_avx2()) {
    WARN("skipped: this CPU has no AVX2");
    return;
  }
  std::mt19937_64 gen(5);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_int_distribution<int> shift(-300, 300);
  for (const double w : {0.1, 1.0 / 3, 0.7, 12345.678}) {
    CAPTURE(w);
    const double v = 1.0 / w;
    // Values a few hundred bins either side of 0 and the windows' lows near their bins, so that offsets
    // fall inside the window, at its ends and outside on both sides (below: a negative difference).
    std::vector<double> x(4096);
    for (double& value : x) value = normal(gen) * 100 * w;
    x[7] = 0.0;
    x[9] = -0.0;
    std::vector<std::int64_t> lo(x.size());
    for (std::size_t p = 0; p < x.size(); ++p) lo[p] = bin_of(x[p], w) - shift(gen);
    const std::vector<double> starts(lo.begin(), lo.end());
    for (const std::int64_t flip : {std::int64_t{0}, std::int64_t{-1}}) {
      std::vector<std::int64_t> bins(x.size());
      // Continuous values land within 2^-50 |x / w| of an edge with probability about 2^-40 here.
      REQUIRE(avx2_bins::quick_bins(x.data(), x.size(), v, flip, bins.data()));
      std::size_t wrong = 0;
      for (std::size_t p = 0; p < x.size(); ++p) wrong += bins[p] != (bin_of(x[p], w) ^ flip);
      CHECK(wrong == 0);
    }
    std::vector<std::uint8_t> offsets(x.size());
    std::uint64_t largest = 0, expected_largest = 0;
    REQUIRE(avx2_bins::window_offsets(x.data(), x.size(), v, starts.data(), offsets.data(), largest));
    std::size_t wrong = 0, inside = 0, outside = 0;
    for (std::size_t p = 0; p < x.size(); ++p) {
      const std::uint64_t expected = window_offset(bin_of(x[p], w), lo[p]);
      expected_largest = std::max(expected_largest, expected);
      wrong += offsets[p] != expected;
      (expected == outside_window ? outside : inside) += 1;
    }
    CHECK(wrong == 0);
    CHECK(largest == expected_largest);
    CHECK(inside > 1000);  // both kinds of offset were exercised
    CHECK(outside > 1000);
  }
  SECTION("what a lane cannot decide sends the whole run back") {
    const double w = 0.3, v = 1.0 / w;
    for (const double bad : {3 * w, std::nextafter(7 * w, 0.0), 0x1p52 * w, -0x1p51 * w, std::nan(""),
                             std::numeric_limits<double>::infinity()}) {
      CAPTURE(bad);
      std::vector<double> x = {0.5, 1.25, -2.0, 3.1, 4.4, -5.5, 6.6, 7.7};
      x[5] = bad;
      std::vector<std::int64_t> bins(x.size());
      const std::vector<double> starts(x.size(), 0.0);
      std::vector<std::uint8_t> offsets(x.size());
      std::uint64_t largest = 0;
      CHECK_FALSE(avx2_bins::quick_bins(x.data(), x.size(), v, 0, bins.data()));
      CHECK_FALSE(avx2_bins::window_offsets(x.data(), x.size(), v, starts.data(), offsets.data(), largest));
    }
  }
  SECTION("offsets at the window's ends, far from it, and windows at the ends of the range, are exact") {
    // A difference beyond 32 bits truncates to 0x80000000, and a negative one wraps: both must read
    // "outside". The kernel decides values farther than 2^-50 |x v| from a bin's edge (2^48 + 0.5 is), and
    // window starts reach max_window_start.
    const double v = 1.0, edge = dpb::alg::max_window_start;
    const std::vector<double> x = {3.5,          257.5,         258.5,        2.5,
                                   0x1p40 + 0.5, -0x1p40 + 0.5, 0x1p48 + 0.5, -0x1p48 + 0.5};
    const std::vector<double> starts = {3, 3, 3, 3, 0, 0, edge, -edge};
    const std::vector<std::uint64_t> expected = {0, 254, 255, 255, 255, 255, 255, 255};
    std::vector<std::uint8_t> offsets(x.size());
    std::uint64_t largest = 0;
    REQUIRE(avx2_bins::window_offsets(x.data(), x.size(), v, starts.data(), offsets.data(), largest));
    for (std::size_t p = 0; p < x.size(); ++p) {
      CAPTURE(p);
      CHECK(offsets[p] == window_offset(bin_of(x[p], 1.0), static_cast<std::int64_t>(starts[p])));
      CHECK(offsets[p] == expected[p]);
    }
    CHECK(largest == outside_window);
  }
}
