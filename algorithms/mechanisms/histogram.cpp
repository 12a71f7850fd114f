#include "algorithms/mechanisms/histogram.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "algorithms/mechanisms/quick_bins_avx2.hpp"
#include "core/cpu_level.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {

void check_histogram_inputs(std::size_t n, const Privacy& privacy) {
  validate(privacy);
  if (!(privacy.delta > 0))
    throw InvalidArgument(
        "the stability histogram needs delta in (0, 1): with delta = 0 it cannot release any bin");
  if (n < 1) throw InvalidArgument("the stability histogram needs at least one record (n >= 1)");
}

// The threshold `release`'s rule applies: -infinity for every_occupied_bin.
double applied_threshold(const StabilityHistogram& out, BinRelease release) {
  switch (release) {
    case BinRelease::thresholded: return out.threshold;
    case BinRelease::every_occupied_bin: return -std::numeric_limits<double>::infinity();
    case BinRelease::halved_threshold: return out.threshold / 2;
  }
  return out.threshold;
}

// Adds occupied bin `bin` with p_hat = count / n to `out`, released by `release`'s rule.
void release_bin(StabilityHistogram& out, std::int64_t bin, double p_hat, BinRelease release, core::Rng& rng) {
  const double noisy = p_hat + core::laplace(rng, out.noise_scale);
  if (noisy >= applied_threshold(out, release)) out.released.push_back({bin, noisy});
  ++out.occupied;
}

// Records the release and, under a sensitivity probe, shows it the exact frequencies and the released
// bins (flattened (bin, frequency) pairs), which it may replace.
void record_release(StabilityHistogram& out, std::span<const BinCount> occupied, std::size_t n,
                    const Privacy& privacy, const std::string& step, BinRelease release, Ledger& ledger) {
  const LedgerEntry entry{
      .step = step,
      .mechanism = Mechanism::stability_histogram,
      .sensitivity = sum_sensitivity_factor(privacy.neighbours) / static_cast<double>(n),
      .norm = SensitivityNorm::l1,
      .noise_scale = out.noise_scale,
      .truncation = applied_threshold(out, release),
      .records = n,
      .neighbours = privacy.neighbours,
      .calibrated_for = {privacy.epsilon, privacy.delta}};
  ledger.record(entry);
  LedgerProbe* probe = active_probe();
  if (!probe) return;
  std::vector<double> frequencies;
  std::vector<std::int64_t> keys;
  for (const BinCount& b : occupied) {
    keys.push_back(b.bin);
    frequencies.push_back(static_cast<double>(b.count) / static_cast<double>(n));
  }
  std::vector<double> released;
  for (const HistogramBin& b : out.released) {
    released.push_back(static_cast<double>(b.bin));
    released.push_back(b.frequency);
  }
  probe->observe(entry, frequencies, keys, released, ProbedRelease::drawn);
  out.released.clear();
  for (std::size_t i = 0; i + 1 < released.size(); i += 2)
    out.released.push_back({static_cast<std::int64_t>(released[i]), released[i + 1]});
}

// floor(r) as a 64-bit integer where in_range (|r| < 2^62), else 0: trunc(r), less 1 where r is below its
// truncation. r is masked bitwise (to +0 when out of range), not by a branch or a select: GCC then
// vectorises the loops that call it (AVX-512 converts eight doubles to 64-bit integers at once, which
// x86-64's baseline cannot), and the conversion never sees a value it cannot represent.
inline std::int64_t floor_or_zero(double r, bool in_range) {
  const std::uint64_t keep = std::uint64_t{0} - static_cast<std::uint64_t>(in_range);
  const double s = std::bit_cast<double>(std::bit_cast<std::uint64_t>(r) & keep);
  const auto i = static_cast<std::int64_t>(s);
  return i - (s < static_cast<double>(i) ? 1 : 0);
}

// The fast path of bin_indices for one value (see there): floor(x v) for v = sign / w. Where that is not
// certainly floor(sign x / w), `undecided` gets a nonzero bit (an accumulator as wide as a double's lane, and
// no branch, so that the callers' loops vectorise; a returned struct stopped GCC 12 from vectorising them).
__attribute__((always_inline)) inline std::int64_t quick_bin(double x, double signed_inverse,
                                                             std::int64_t& undecided) {
  const double r = x * signed_inverse, size = std::abs(r);
  const bool in_range = size < 0x1p61;
  const std::int64_t i = floor_or_zero(r, in_range);
  const double f = static_cast<double>(i), near = size * 0x1p-50 + 0x1p-960;
  // & and |, not && and ||
  const bool decided = (in_range & (r - f > near) & (f + 1.0 - r > near)) | (x == 0.0);
  undecided |= static_cast<std::int64_t>(!decided);
  return i;
}

// Widths whose inverse keeps the fast path's error bound (v neither overflows nor underflows).
bool fast_path_width(double width) { return width > 0x1p-1000 && width < 0x1p1000; }

}  // namespace

double histogram_noise_scale(std::size_t n, const Privacy& privacy) {
  check_histogram_inputs(n, privacy);
  // spec: liu2022 §2.7. Replacing a record moves 1/n between two bins (l1 change 2/n); adding or
  // removing one changes a single count by 1.
  return sum_sensitivity_factor(privacy.neighbours) / (privacy.epsilon * static_cast<double>(n));
}

double histogram_threshold(std::size_t n, const Privacy& privacy) {
  check_histogram_inputs(n, privacy);
  const double en = privacy.epsilon * static_cast<double>(n), one = 1.0 / static_cast<double>(n);
  // spec: liu2022 §2.7
  return privacy.neighbours == Neighbours::replace ? 2.0 * std::log(2.0 / privacy.delta) / en + one
                                                   : one + std::log(1.0 / privacy.delta) / en;
}

StabilityHistogram stability_histogram(std::span<const std::int64_t> bins, const Privacy& privacy,
                                       const std::string& step, Ledger& ledger, core::Rng& rng,
                                       BinRelease release) {
  // Sorting materialises only occupied bins and fixes the order in which noise is drawn.
  std::vector<std::int64_t> sorted(bins.begin(), bins.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<BinCount> occupied;
  for (auto run = sorted.begin(); run != sorted.end();) {
    const auto run_end = std::upper_bound(run, sorted.end(), *run);
    occupied.push_back({*run, static_cast<std::size_t>(run_end - run)});
    run = run_end;
  }
  return stability_histogram_from_counts(occupied, bins.size(), privacy, step, ledger, rng, release);
}

StabilityHistogram stability_histogram_from_counts(std::span<const BinCount> occupied, std::size_t n,
                                                   const Privacy& privacy, const std::string& step,
                                                   Ledger& ledger, core::Rng& rng, BinRelease release) {
  StabilityHistogram out;
  out.noise_scale = histogram_noise_scale(n, privacy);
  out.threshold = histogram_threshold(n, privacy);
  std::size_t total = 0;
  for (std::size_t i = 0; i < occupied.size(); ++i) {
    const BinCount& b = occupied[i];
    if (b.count < 1 || (i > 0 && b.bin <= occupied[i - 1].bin))
      throw InvalidArgument("stability_histogram_from_counts: bins must be distinct, increasing, with counts >= 1");
    total += b.count;
    release_bin(out, b.bin, static_cast<double>(b.count) / static_cast<double>(n), release, rng);
  }
  if (total != n) throw InvalidArgument("stability_histogram_from_counts: the counts must sum to n");
  record_release(out, occupied, n, privacy, step, release, ledger);
  return out;
}

std::optional<HistogramBin> largest_released_bin(const StabilityHistogram& histogram) {
  std::optional<HistogramBin> best;
  // Bins are in increasing order and only a strictly larger frequency wins: ties go to the smallest.
  for (const auto& b : histogram.released)
    if (!best || b.frequency > best->frequency) best = b;
  return best;
}

std::int64_t log_bin(double lambda) {
  if (!(std::isfinite(lambda) && lambda >= 0))
    throw InvalidArgument(fmt::format("log_bin: lambda must be finite and >= 0, got {}", lambda));
  if (lambda == 0) return zero_log_bin;
  return static_cast<std::int64_t>(std::floor(4.0 * std::log2(lambda)));  // spec: liu2022 §2.7 (Alg. 4)
}

bool same_log_bin(double lo, double hi) {
  if (!(lo > 0 && lo <= hi && std::isfinite(hi))) return lo == 0 && hi == 0;  // [0, 0] is one bin
  if (hi > 1.25 * lo) return false;  // wider than any bin (2^(1/4) = 1.19)
  // log2 is monotone up to its rounding, a few ulps of values below 2^13 in size (2^-39 each): a value in
  // between has 4 log2 within 2^-30 of the ends' span, so both floors with that margin bound its bin.
  constexpr double margin = 0x1p-30;
  return std::floor(4.0 * std::log2(lo) - margin) == std::floor(4.0 * std::log2(hi) + margin);
}

double log_bin_left(std::int64_t m) {
  return m == zero_log_bin ? 0.0 : std::exp2(static_cast<double>(m) / 4.0);
}

std::int64_t interval_bin(double x, double tau) {
  if (!(std::isfinite(tau) && tau > 0))
    throw InvalidArgument(fmt::format("interval_bin: bin width tau must be finite and > 0, got {}", tau));
  const double ratio = x / tau;
  if (!(std::abs(ratio) < 0x1.0p62))
    throw InvalidArgument(
        fmt::format("interval_bin: x / tau = {} / {} is not finite or too large for a bin index", x, tau));
  return static_cast<std::int64_t>(std::ceil(ratio)) - 1;  // spec: liu2022 §2.7 (Alg. 5)
}

// Division is the slow part (a 512-bit vdivpd takes 16 cycles for eight doubles), so a first pass
// multiplies by v = fl(1 / w). With w and v within 2^+-1000, r = fl(x v) and q = fl(x / w) are
// (x / w)(1 + e1)(1 + e2) and (x / w)(1 + e3), |e| <= 2^-53, so |r - q| < 2^-51 |r| unless they come near
// underflow: floor(r) = floor(q) wherever r is farther than 2^-50 |r| + 2^-960 from both integers around
// it, and x = +-0 gives r = q = +-0. Any entry the pass cannot decide (an integer too close, |r| >= 2^61,
// NaN, infinities) sends the whole span to the division, one per entry; a continuous value lands that
// near an integer with probability about 2^-49 |r|. A right-closed bin is ceil(q) - 1 = ~floor(-q), and
// -q = (-x) / w exactly. It throws nothing: an exception thrown inside a target_clones function reached
// std::terminate (GCC 12, the AVX-512 clone, depending on what it inlined).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
bool bin_indices(std::span<const double> x, double width, BinClosed closed, std::span<std::int64_t> out) noexcept {
  const double sign = closed == BinClosed::left ? 1.0 : -1.0;
  const std::int64_t flip = closed == BinClosed::left ? 0 : -1;  // i ^ -1 = ~i
  const double signed_inverse = sign * (1.0 / width);  // (sign x) v = x (sign v): the sign only flips
  if (fast_path_width(width)) {
    std::int64_t undecided = 0;
    std::size_t j = 0;
    if (core::avx2_is_widest()) {
      j = x.size() - x.size() % 4;
      undecided = !avx2_bins::quick_bins(x.data(), j, signed_inverse, flip, out.data());
    }
    for (; j < x.size(); ++j) out[j] = quick_bin(x[j], signed_inverse, undecided) ^ flip;
    if (undecided == 0) return true;
  }
  std::int64_t out_of_range = 0;
  for (std::size_t j = 0; j < x.size(); ++j) {
    const double q = sign * x[j] / width;
    const bool in_range = std::abs(q) < 0x1p62;
    out_of_range |= static_cast<std::int64_t>(!in_range);
    out[j] = floor_or_zero(q, in_range) ^ flip;
  }
  return out_of_range == 0;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
bool left_closed_window_offsets(std::span<const double> x, double width, std::span<const double> lo,
                                std::span<std::uint8_t> out, std::uint64_t& largest) noexcept {
  if (!fast_path_width(width)) return false;
  const double inverse = 1.0 / width;
  std::int64_t undecided = 0;
  std::uint64_t top = 0;
  std::size_t p = 0;
  if (core::avx2_is_widest()) {
    p = x.size() - x.size() % 8;
    undecided = !avx2_bins::window_offsets(x.data(), p, inverse, lo.data(), out.data(), top);
  }
  for (; p < x.size(); ++p) {
    const std::uint64_t offset =
        window_offset(quick_bin(x[p], inverse, undecided), static_cast<std::int64_t>(lo[p]));
    top = std::max(top, offset);
    out[p] = static_cast<std::uint8_t>(offset);
  }
  largest = top;
  return undecided == 0;
}

void interval_bins(std::span<const double> x, double tau, std::span<std::int64_t> out) {
  if (!(std::isfinite(tau) && tau > 0) || !bin_indices(x, tau, BinClosed::right, out))
    for (const double v : x) interval_bin(v, tau);  // throws at the first one
}

double interval_bin_left(std::int64_t m, double tau) { return static_cast<double>(m) * tau; }

}  // namespace dpb::alg
