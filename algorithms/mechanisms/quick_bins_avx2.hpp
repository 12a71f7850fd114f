#pragma once
// The fast path of the histograms' binning (histogram.cpp: quick_bin, bin_indices,
// left_closed_window_offsets) with AVX2, four or eight values at a time, for CPUs without AVX-512. There the
// target_clones' default clone converts doubles to 64-bit integers one at a time (AVX2 has no such
// conversion), and the binning of TRUNCATEDMEAN and liu2022's Alg. 5 costs several times the data's
// generation. These work in doubles instead: floor(r) by rounding, a bin moved into a 64-bit integer by a
// magic-number addition (exact below 2^51), and a window offset as a difference of doubles. A value they
// cannot decide (near a bin's edge, or |x v| >= 2^49, NaN and infinities included) sends the run back: the
// caller then bins every entry exactly. The bins and offsets they give are the scalar path's, bit for bit.
#include <cstddef>
#include <cstdint>

namespace dpb::alg::avx2_bins {

// out[j] = floor(x[j] v) ^ flip for j < n, n a multiple of 4. False where some floor(x[j] v) may not be
// floor(x[j] / w) (quick_bin's test), or |x[j] v| >= 2^51 (NaN and infinities included): `out` is then
// unspecified.
bool quick_bins(const double* x, std::size_t n, double v, std::int64_t flip, std::int64_t* out) noexcept;

// out[j] = window_offset(floor(x[j] v), lo[j]) for j < n, n a multiple of 8, and `largest` their largest.
// Each lo[j] is a window's first bin as a double: integral, |lo[j]| < 2^51 (unchecked). False as quick_bins.
bool window_offsets(const double* x, std::size_t n, double v, const double* lo, std::uint8_t* out,
                    std::uint64_t& largest) noexcept;

}  // namespace dpb::alg::avx2_bins
