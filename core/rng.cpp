#include "core/rng.hpp"

#include <Random123/philox.h>

#include <algorithm>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "core/errors.hpp"

namespace dpb::core {

namespace {

// One Philox4x32-10 block per counter, Random123's reference implementation.
void philox_reference(std::uint64_t seed, std::uint64_t stream, std::uint64_t block, std::uint64_t* out) {
  r123::Philox4x32 philox;
  const r123::Philox4x32::key_type key = {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
  const r123::Philox4x32::ctr_type ctr = {
      {static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
       static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32)}};
  const auto w = philox(ctr, key);
  out[0] = (static_cast<std::uint64_t>(w[1]) << 32) | w[0];
  out[1] = (static_cast<std::uint64_t>(w[3]) << 32) | w[2];
}

#if defined(__x86_64__) && defined(__GNUC__)
#define DPB_PHILOX_VECTOR 1
// The kernel of core/philox_lanes.inc for each vector width, each compiled for its instruction set only.

#pragma GCC push_options
#pragma GCC target("avx2")
namespace avx2_lanes {
using V = __m256i;
constexpr int kLanes = 4;
inline V set1(std::uint64_t x) { return _mm256_set1_epi64x(static_cast<long long>(x)); }
inline V lane_index() { return _mm256_set_epi64x(3, 2, 1, 0); }
inline V add(V a, V b) { return _mm256_add_epi64(a, b); }
inline V srl32(V a) { return _mm256_srli_epi64(a, 32); }
inline V high_to_low(V a) { return _mm256_shuffle_epi32(a, 0xb1); }  // swaps each lane's halves
inline V sll32(V a) { return _mm256_slli_epi64(a, 32); }
inline V mul_lo32(V a, V b) { return _mm256_mul_epu32(a, b); }
inline V and_(V a, V b) { return _mm256_and_si256(a, b); }
inline V or_(V a, V b) { return _mm256_or_si256(a, b); }
inline V xor3(V a, V b, V c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
inline void store_blocks(std::uint64_t* out, V w0, V w1) {
  const V even = _mm256_unpacklo_epi64(w0, w1), odd = _mm256_unpackhi_epi64(w0, w1);  // blocks 0, 2 and 1, 3
  auto* dst = reinterpret_cast<V*>(out);
  _mm256_storeu_si256(dst, _mm256_permute2x128_si256(even, odd, 0x20));
  _mm256_storeu_si256(dst + 1, _mm256_permute2x128_si256(even, odd, 0x31));
}
#include "core/philox_lanes.inc"
}  // namespace avx2_lanes
#pragma GCC pop_options

// AVX-512's 512-bit registers, 32 of them: four groups of eight counters without spilling, and the two xors
// of a round in one ternary-logic instruction. Measured on a 2-core Intel Xeon VM (Sapphire/Emerald Rapids
// class): 1.02 ns per word against 1.45 for the same instructions on 256-bit registers (bench/README.md).
#pragma GCC push_options
#pragma GCC target("avx2,avx512f")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored \
    "-Wmaybe-uninitialized"  // GCC 12's intrinsics: _mm512_undefined_epi32 (bug 105593)
namespace avx512_lanes {
using V = __m512i;
constexpr int kLanes = 8;
inline V set1(std::uint64_t x) { return _mm512_set1_epi64(static_cast<long long>(x)); }
inline V lane_index() { return _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0); }
inline V add(V a, V b) { return _mm512_add_epi64(a, b); }
inline V srl32(V a) { return _mm512_srli_epi64(a, 32); }
inline V high_to_low(V a) { return _mm512_shuffle_epi32(a, _MM_PERM_CDAB); }  // swaps each lane's halves
inline V sll32(V a) { return _mm512_slli_epi64(a, 32); }
inline V mul_lo32(V a, V b) { return _mm512_mul_epu32(a, b); }
inline V and_(V a, V b) { return _mm512_and_si512(a, b); }
inline V or_(V a, V b) { return _mm512_or_si512(a, b); }
inline V xor3(V a, V b, V c) { return _mm512_ternarylogic_epi64(a, b, c, 0x96); }
inline void store_blocks(std::uint64_t* out, V w0, V w1) {
  // Lanes 0-3 of w0 and w1 interleaved, then lanes 4-7 (index 8 + l picks w1's lane l).
  _mm512_storeu_si512(out, _mm512_permutex2var_epi64(w0, _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0), w1));
  _mm512_storeu_si512(out + 8,
                      _mm512_permutex2var_epi64(w0, _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4), w1));
}
#include "core/philox_lanes.inc"
}  // namespace avx512_lanes
#pragma GCC diagnostic pop
#pragma GCC pop_options

// AVX2 has 16 vector registers: two groups (8 state vectors and the constants) fit.
void philox_avx2(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, int count,
                 std::uint64_t* out) {
  avx2_lanes::philox_lanes<2>(seed, stream, first_block, count, out);
}

void philox_avx512(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, int count,
                   std::uint64_t* out) {
  avx512_lanes::philox_lanes<4>(seed, stream, first_block, count, out);
}
#endif

// Blocks per pass of each kernel: `count` must be a multiple of it.
int kernel_width(PhiloxKernel kernel) {
  switch (kernel) {
    case PhiloxKernel::avx2:
      return 8;
    case PhiloxKernel::avx512:
      return 32;
    case PhiloxKernel::portable:
      break;
  }
  return 1;
}

}  // namespace

std::vector<PhiloxKernel> philox_kernels() {
  std::vector<PhiloxKernel> kernels{PhiloxKernel::portable};
#ifdef DPB_PHILOX_VECTOR
  if (__builtin_cpu_supports("avx2")) kernels.push_back(PhiloxKernel::avx2);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f"))
    kernels.push_back(PhiloxKernel::avx512);
#endif
  return kernels;
}

void philox_blocks(PhiloxKernel kernel, std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block,
                   int count, std::uint64_t* out) {
  if (count % kernel_width(kernel) != 0)
    throw InvalidArgument("philox_blocks: count must be a multiple of the kernel's blocks per pass");
  switch (kernel) {
#ifdef DPB_PHILOX_VECTOR
    case PhiloxKernel::avx2:
      return philox_avx2(seed, stream, first_block, count, out);
    case PhiloxKernel::avx512:
      return philox_avx512(seed, stream, first_block, count, out);
#endif
    default:
      for (int i = 0; i < count; ++i)
        philox_reference(seed, stream, first_block + static_cast<std::uint64_t>(i), out + 2 * i);
  }
}

void philox_blocks(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, int count,
                   std::uint64_t* out) {
  // The fastest kernel the CPU has whose width divides count (the buffer's first refills are 1, 2, 4 blocks).
  static const std::vector<PhiloxKernel> kernels = philox_kernels();
  for (auto k = kernels.rbegin(); k != kernels.rend(); ++k)
    if (count % kernel_width(*k) == 0) return philox_blocks(*k, seed, stream, first_block, count, out);
}

void Rng::refill() {
  blocks_ = blocks_ == 0 ? 1 : std::min(2 * blocks_, kMaxBlocks);
  philox_blocks(seed_, stream_, block_, blocks_, buffer_.data());
  block_ += static_cast<std::uint64_t>(blocks_);
  filled_ = 2 * blocks_;
  next_ = 0;
}

Rng Rng::child(std::string_view role) const {
  return Rng(seed_, combine_stream(stream_, hash_name(role)));
}

std::uint64_t hash_name(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t combine_stream(std::uint64_t h, std::uint64_t v) {
  return splitmix64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

std::uint64_t stream_id(std::string_view experiment, std::uint64_t cell, std::string_view algorithm,
                        std::uint64_t trial, std::string_view role) {
  std::uint64_t h = hash_name(experiment);
  h = combine_stream(h, cell);
  h = combine_stream(h, hash_name(algorithm));
  h = combine_stream(h, trial);
  return combine_stream(h, hash_name(role));
}

}  // namespace dpb::core
