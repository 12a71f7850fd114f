#include "algorithms/mechanisms/quick_bins_avx2.hpp"

#include "algorithms/mechanisms/histogram.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DPB_AVX2_BINS 1
#endif

namespace dpb::alg::avx2_bins {

#ifdef DPB_AVX2_BINS
namespace {

// 1.5 2^52: adding an integer i with |i| < 2^51 to it gives a double whose low mantissa bits are i's, so
// that the two's-complement difference of the bit patterns is i, both ways.
constexpr double kMagic = 0x1.8p52;
constexpr long long kMagicBits = 0x4338000000000000LL;
constexpr double kLimit = 0x1p51;

struct Lanes {
  __m256d r, f;     // x v and floor(x v)
  __m256d decided;  // all ones where f is certainly floor(x / w) and |x v| < 2^51
};

__attribute__((target("avx2"), always_inline)) inline Lanes floor_lanes(const double* x, __m256d v) {
  const __m256d value = _mm256_loadu_pd(x), zero = _mm256_setzero_pd();
  const __m256d abs_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
  const __m256d r = _mm256_mul_pd(value, v), size = _mm256_and_pd(r, abs_mask);
  const __m256d f = _mm256_floor_pd(r);
  // quick_bin's test: r farther than 2^-50 |r| + 2^-960 from both integers around it, or x = +-0. Every
  // operation is quick_bin's, in its order (no contraction: -ffp-contract=off).
  const __m256d near = _mm256_add_pd(_mm256_mul_pd(size, _mm256_set1_pd(0x1p-50)), _mm256_set1_pd(0x1p-960));
  // A guard only: the edge test below already refuses |r| >= 2^50, where 2^-50 |r| >= 1.
  const __m256d in_range = _mm256_cmp_pd(size, _mm256_set1_pd(kLimit), _CMP_LT_OQ);
  const __m256d above_floor = _mm256_cmp_pd(_mm256_sub_pd(r, f), near, _CMP_GT_OQ);
  const __m256d below_next =
      _mm256_cmp_pd(_mm256_sub_pd(_mm256_add_pd(f, _mm256_set1_pd(1.0)), r), near, _CMP_GT_OQ);
  const __m256d is_zero = _mm256_cmp_pd(value, zero, _CMP_EQ_OQ);
  const __m256d decided =
      _mm256_or_pd(_mm256_and_pd(in_range, _mm256_and_pd(above_floor, below_next)), is_zero);
  return {r, f, decided};
}

// The integers of doubles f with |f| < 2^51 (and integral), exactly.
__attribute__((target("avx2"), always_inline)) inline __m256i to_integers(__m256d f) {
  return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(f, _mm256_set1_pd(kMagic))),
                          _mm256_set1_epi64x(kMagicBits));
}

// The doubles of integers i with |i| < 2^51, exactly.
__attribute__((target("avx2"), always_inline)) inline __m256d to_doubles(__m256i i) {
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(i, _mm256_set1_epi64x(kMagicBits))),
                       _mm256_set1_pd(kMagic));
}

}  // namespace

bool preferred() noexcept {
  static const bool yes = __builtin_cpu_supports("x86-64-v3") && !__builtin_cpu_supports("x86-64-v4");
  return yes;
}

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

__attribute__((target("avx2"))) bool window_offsets(const double* x, std::size_t n, double v,
                                                    const std::int64_t* lo, std::uint8_t* out,
                                                    std::uint64_t& largest) noexcept {
  const __m256d inverse = _mm256_set1_pd(v), outside = _mm256_set1_pd(outside_window);
  const __m256i limit = _mm256_set1_epi64x(static_cast<long long>(kLimit));
  __m256d decided = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  __m128i top = _mm_setzero_si128();
  for (std::size_t j = 0; j < n; j += 4) {
    const Lanes lanes = floor_lanes(x + j, inverse);
    const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lo + j));
    // |lo| < 2^51, as -2^51 < lo < 2^51.
    const __m256i low_in_range =
        _mm256_and_si256(_mm256_cmpgt_epi64(limit, low),
                         _mm256_cmpgt_epi64(low, _mm256_sub_epi64(_mm256_setzero_si256(), limit)));
    decided = _mm256_and_pd(decided, _mm256_and_pd(lanes.decided, _mm256_castsi256_pd(low_in_range)));
    // floor(x v) - lo, exact (both below 2^51); window_offset's min(unsigned difference, outside): a
    // negative difference wraps past the window.
    const __m256d offset = _mm256_sub_pd(lanes.f, to_doubles(low));
    const __m256d inside = _mm256_and_pd(_mm256_cmp_pd(offset, _mm256_setzero_pd(), _CMP_GE_OQ),
                                         _mm256_cmp_pd(offset, outside, _CMP_LT_OQ));
    const __m128i offsets = _mm256_cvttpd_epi32(_mm256_blendv_pd(outside, offset, inside));
    top = _mm_max_epi32(top, offsets);
    const __m128i bytes = _mm_packus_epi16(_mm_packus_epi32(offsets, offsets), _mm_setzero_si128());
    const int four = _mm_cvtsi128_si32(bytes);
    __builtin_memcpy(out + j, &four, 4);
  }
  top = _mm_max_epi32(top, _mm_shuffle_epi32(top, 0x4e));
  top = _mm_max_epi32(top, _mm_shuffle_epi32(top, 0xb1));
  largest = static_cast<std::uint64_t>(_mm_cvtsi128_si32(top));
  return _mm256_movemask_pd(decided) == 0xf;
}

#else

bool preferred() noexcept { return false; }
bool quick_bins(const double*, std::size_t, double, std::int64_t, std::int64_t*) noexcept { return false; }
bool window_offsets(const double*, std::size_t, double, const std::int64_t*, std::uint8_t*,
                    std::uint64_t&) noexcept {
  return false;
}

#endif

}  // namespace dpb::alg::avx2_bins
