#pragma once
// Stability-based histogram learner (Karwa & Vadhan 2017, Lemma 2.3; liu2022 Lemma B.1;
// dugler2026 Lemma 12) over unbounded integer bins, and the bin-index maps the papers use.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct HistogramBin {
  std::int64_t bin = 0;
  double frequency = 0;  // released noisy frequency p~ (>= the threshold unless every_occupied_bin)
};

// Which occupied bins are released. Every algorithm uses `thresholded` (Lemma B.1): a noisy frequency
// below the threshold is released as 0. `every_occupied_bin` skips that test and is NOT private (a bin
// held by one record is then released whenever it is occupied, which its neighbour can tell apart);
// `halved_threshold` tests against half the threshold (a bin held by one record is released with
// probability about sqrt(delta), not delta). Both are seams for the mutant zoo only (docs/mutants.md).
enum class BinRelease { thresholded, every_occupied_bin, halved_threshold };

struct StabilityHistogram {
  std::vector<HistogramBin> released;  // increasing bin order; every bin not listed is released as 0
  std::size_t occupied = 0;            // bins with at least one record (released.size() <= occupied)
  double noise_scale = 0;              // Laplace scale on a frequency
  double threshold = 0;                // noisy frequencies below it were released as 0
};

// The noise scale and threshold of the histogram on n records (spec: liu2022 §2.7):
//   replace:    Lap(2/(eps n)),  threshold 2 log(2/delta)/(eps n) + 1/n
//   add_remove: Lap(1/(eps n)),  threshold 1/n + log(1/delta)/(eps n)
// A bin held by a single record is released with probability delta/4 (replace) or delta/2
// (add_remove). Require eps finite and > 0, delta in (0, 1), n >= 1.
double histogram_noise_scale(std::size_t n, const Privacy& privacy);
double histogram_threshold(std::size_t n, const Privacy& privacy);

// One run of the (eps, delta)-DP histogram on `bins` (the bin index of each record; n = bins.size()):
// p_hat_k = count_k / n; every occupied bin gets p_hat_k + Lap(noise_scale), drawn in increasing bin
// order (so the output depends only on the multiset of bins and the rng), and is released only if
// that is >= threshold (or the threshold `release` applies). Empty bins get no noise and are never
// released. Only occupied bins are materialised, so the bin range is unbounded. Under add_remove the privacy guarantee is for the
// noisy counts n p~; dividing by the record count is post-processing only where n is public.
// The release is recorded in `ledger` as `step` (l1 sensitivity 2/n or 1/n on the frequencies; a release
// of every occupied bin is recorded with no threshold, which the accountant charges delta = 1; a halved
// threshold with the delta it gives).
StabilityHistogram stability_histogram(std::span<const std::int64_t> bins, const Privacy& privacy,
                                       const std::string& step, Ledger& ledger, core::Rng& rng,
                                       BinRelease release = BinRelease::thresholded);

// One occupied bin and its record count (>= 1), for `stability_histogram_from_counts`.
struct BinCount {
  std::int64_t bin = 0;
  std::size_t count = 0;
};

// The same release as `stability_histogram` from the occupied bins' counts instead of the records:
// `occupied` lists distinct bins in increasing order with counts >= 1 summing to n. Given the same
// multiset of bins and rng state, the output is identical to `stability_histogram` (noise is drawn in
// increasing bin order). For callers that count bins faster than by sorting (dugler2026 Alg. 5).
StabilityHistogram stability_histogram_from_counts(std::span<const BinCount> occupied, std::size_t n,
                                                   const Privacy& privacy, const std::string& step,
                                                   Ledger& ledger, core::Rng& rng,
                                                   BinRelease release = BinRelease::thresholded);

// The released bin with the largest noisy frequency, ties to the smallest bin index (liu2022
// ambiguity 15); std::nullopt (BOTTOM, liu2022 Alg. 4 line 6) when nothing was released.
std::optional<HistogramBin> largest_released_bin(const StabilityHistogram& histogram);

// liu2022 Alg. 4 line 4: bins [2^{m/4}, 2^{(m+1)/4}), index m = floor(4 log2 lambda) for lambda > 0,
// plus the bin [0, 0], whose index is `zero_log_bin`. lambda must be finite and >= 0.
inline constexpr std::int64_t zero_log_bin = std::numeric_limits<std::int64_t>::min();
std::int64_t log_bin(double lambda);
// Whether every lambda in [lo, hi] has the same log_bin, allowing for log2's rounding (false where that is
// not certain, and for lo > hi).
bool same_log_bin(double lo, double hi);
// Left endpoint of log bin m: 2^{m/4}, or 0 for zero_log_bin (what Alg. 4 line 8 returns).
double log_bin_left(std::int64_t m);

// liu2022 Alg. 5 line 3: left-open bins (m tau, (m+1) tau], index m = ceil(x/tau) - 1. x finite,
// tau finite and > 0, |x/tau| < 2^62.
std::int64_t interval_bin(double x, double tau);
// interval_bin of each x[j] into out[j] (out.size() >= x.size()), or its error at the first x[j] it refuses.
void interval_bins(std::span<const double> x, double tau, std::span<std::int64_t> out);

// The bin of each x[j] among bins of width `width` (finite, > 0), for the callers that bin many values:
// [i w, (i + 1) w), index floor(x / w) (left closed, dugler2026's left_closed_bin), or (m w, (m + 1) w],
// index ceil(x / w) - 1 (right closed, interval_bin). False, with `out` unspecified, where some |x[j] / w| is
// not below 2^62 (NaN and infinities included): the caller then gives its scalar function's error.
enum class BinClosed { left, right };
bool bin_indices(std::span<const double> x, double width, BinClosed closed,
                 std::span<std::int64_t> out) noexcept;
// The offset of bin `bin` in a window of bins starting at `lo`: bin - lo, or outside_window where that is
// outside_window or more or negative (any offset past the window's length says "outside").
inline constexpr std::uint8_t outside_window = 255;
inline std::uint64_t window_offset(std::int64_t bin, std::int64_t lo) {
  // Unsigned (wrapping, well defined) difference: bins below the window wrap to huge offsets.
  return std::min<std::uint64_t>(static_cast<std::uint64_t>(bin) - static_cast<std::uint64_t>(lo),
                                 outside_window);
}
// For the callers that count values in windows of bins: out[p] = window_offset(bin of x[p], lo[p]) for the
// left-closed bins of bin_indices, without the bins themselves, and `largest` the largest offset. Each lo[p]
// is a window's first bin as a double, integral with |lo[p]| <= max_window_start (unchecked; the fast path
// subtracts it as a double). False, with `out` unspecified, where the fast path cannot decide some bin (a
// value near a bin's edge, NaN, too large): the caller then bins those values by left_closed_bin.
inline constexpr double max_window_start = 0x1p51 - 1;
bool left_closed_window_offsets(std::span<const double> x, double width, std::span<const double> lo,
                                std::span<std::uint8_t> out, std::uint64_t& largest) noexcept;
// Left endpoint of interval bin m: m tau (Alg. 5 line 4).
double interval_bin_left(std::int64_t m, double tau);

}  // namespace dpb::alg
