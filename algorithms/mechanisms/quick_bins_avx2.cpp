#include "algorithms/mechanisms/quick_bins_avx2.hpp"

#include "algorithms/mechanisms/histogram.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DPB_AVX2_BINS 1
#endif

namespace dpb::alg::avx2_bins {

#ifdef DPB_AVX2_BINS
namespace {

// 1.5 2^52: adding an integral double i with |i| < 2^51 to it gives a double whose low mantissa bits are i's,
// so that the two's-complement difference of the bit patterns is i.
constexpr double kMagic = 0x1.8p52;
constexpr long long kMagicBits = 0x4338000000000000LL;

struct Lanes {
  __m256d f;        // floor(x v)
  __m256d decided;  // all ones where f is certainly floor(x / w) and |x v| < 2^50
};

__attribute__((target("avx2"), always_inline)) inline Lanes floor_lanes(const double* x, __m256d v) {
  const __m256d value = _mm256_loadu_pd(x), zero = _mm256_setzero_pd();
  const __m256d abs_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
  const __m256d r = _mm256_mul_pd(value, v), size = _mm256_and_pd(r, abs_mask);
  const __m256d f = _mm256_floor_pd(r);
  // quick_bin's test: r farther than 2^-50 |r| + 2^-960 from both integers around it, or x = +-0. Every
  // operation is quick_bin's, in its order (no contraction: -ffp-contract=off). It also bounds the range:
  // from |r| >= 2^50 on, 2^-50 |r| >= 1 > r - f, and NaN or infinite r fail both comparisons.
  const __m256d near = _mm256_add_pd(_mm256_mul_pd(size, _mm256_set1_pd(0x1p-50)), _mm256_set1_pd(0x1p-960));
  const __m256d above_floor = _mm256_cmp_pd(_mm256_sub_pd(r, f), near, _CMP_GT_OQ);
  const __m256d below_next =
      _mm256_cmp_pd(_mm256_sub_pd(_mm256_add_pd(f, _mm256_set1_pd(1.0)), r), near, _CMP_GT_OQ);
  const __m256d is_zero = _mm256_cmp_pd(value, zero, _CMP_EQ_OQ);
  return {f, _mm256_or_pd(_mm256_and_pd(above_floor, below_next), is_zero)};
}

// The integers of integral doubles f with |f| < 2^51, exactly.
__attribute__((target("avx2"), always_inline)) inline __m256i to_integers(__m256d f) {
  return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(f, _mm256_set1_pd(kMagic))),
                          _mm256_set1_epi64x(kMagicBits));
}

}  // namespace

__attribute__((target("avx2"))) bool quick_bins(const double* x, std::size_t n, double v, std::int64_t flip,
                                                std::int64_t* out) noexcept {
  const __m256d inverse = _mm256_set1_pd(v);
  const __m256i flips = _mm256_set1_epi64x(flip);
  __m256d decided = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  for (std::size_t j = 0; j < n; j += 4) {
    const Lanes lanes = floor_lanes(x + j, inverse);
    decided = _mm256_and_pd(decided, lanes.decided);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j), _mm256_xor_si256(to_integers(lanes.f), flips));
  }
  return _mm256_movemask_pd(decided) == 0xf;
}

// The window offsets of four values from their floors f and window starts lo (doubles): f - lo is exact (both
// below 2^51), and the truncation to 32 bits is window_offset's min(unsigned difference, outside): a
// negative difference, or one beyond 32 bits (truncated to 0x80000000), is above outside_window unsigned.
__attribute__((target("avx2"), always_inline)) inline __m128i offset_lanes(__m256d f, const double* lo) {
  return _mm_min_epu32(_mm256_cvttpd_epi32(_mm256_sub_pd(f, _mm256_loadu_pd(lo))),
                       _mm_set1_epi32(outside_window));
}

__attribute__((target("avx2"))) bool window_offsets(const double* x, std::size_t n, double v,
                                                    const double* lo, std::uint8_t* out,
                                                    std::uint64_t& largest) noexcept {
  const __m256d inverse = _mm256_set1_pd(v);
  __m256d decided = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  __m128i top = _mm_setzero_si128();
  for (std::size_t j = 0; j < n; j += 8) {  // eight at a time: one pack and one store of eight bytes
    const Lanes a = floor_lanes(x + j, inverse), b = floor_lanes(x + j + 4, inverse);
    decided = _mm256_and_pd(decided, _mm256_and_pd(a.decided, b.decided));
    const __m128i first = offset_lanes(a.f, lo + j), second = offset_lanes(b.f, lo + j + 4);
    top = _mm_max_epi32(top, _mm_max_epi32(first, second));
    const __m128i words = _mm_packus_epi32(first, second);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + j), _mm_packus_epi16(words, words));
  }
  top = _mm_max_epi32(top, _mm_shuffle_epi32(top, 0x4e));
  top = _mm_max_epi32(top, _mm_shuffle_epi32(top, 0xb1));
  largest = static_cast<std::uint64_t>(_mm_cvtsi128_si32(top));
  return _mm256_movemask_pd(decided) == 0xf;
}

#else

bool quick_bins(const double*, std::size_t, double, std::int64_t, std::int64_t*) noexcept { return false; }
bool window_offsets(const double*, std::size_t, double, const double*, std::uint8_t*,
                    std::uint64_t&) noexcept {
  return false;
}

#endif

}  // namespace dpb::alg::avx2_bins
