#pragma once
// Counter-based random streams (DESIGN.md §3 "Randomness").
//
// `Rng` is Philox4x32-10 (Random123) keyed by the 64-bit master seed; the 128-bit counter is
// (stream id, block index). A stream's numbers therefore depend only on (seed, stream id), never on
// which thread or MPI rank draws them or in which order streams are used.
//
// Layout of one Philox call, fixed forever (results are reproducible across versions):
//   key     = { lo32(seed), hi32(seed) }
//   counter = { lo32(block), hi32(block), lo32(stream), hi32(stream) }
//   output  = 4 x 32 bits, returned as two 64-bit words: (out[1] << 32 | out[0]), (out[3] << 32 | out[2]).
// Blocks are computed many at once (`philox_blocks`, vectorised over counters) into a buffer that
// grows from one block to `kMaxBlocks` as a stream is used, so a stream drawn once costs one block
// and a long one runs at the vector unit's throughput; the words are the same either way.
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace dpb::core {

// The version of everything that maps (seed, stream) to numbers: this word layout, the stream-id
// derivation below and the samplers' transforms (samplers.hpp). Stored results record it; a change
// to any of them increments it.
//   1: Boost.Random's ziggurat for normals.
//   2: dpbounds' own 256-layer ziggurat (samplers.hpp), drawn from the same words.
inline constexpr int kStreamLayout = 2;

// Philox4x32-10 of `count` consecutive blocks first_block, first_block + 1, ... of one stream, two
// words per block in the order documented above. Vectorised over counters with the widest kernel the CPU
// has whose blocks per pass divide count (the result is the same integer arithmetic whichever runs).
void philox_blocks(std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block, int count,
                   std::uint64_t* out);
// The kernels: Random123's reference one block at a time; AVX2 over 8 blocks a pass; AVX-512 over 32.
enum class PhiloxKernel { portable, avx2, avx512 };
// The kernels this CPU can run, portable first.
std::vector<PhiloxKernel> philox_kernels();
// One kernel by name (for the test that every kernel gives the portable one's words); count must be a
// multiple of its blocks per pass (dpb::InvalidArgument otherwise).
void philox_blocks(PhiloxKernel kernel, std::uint64_t seed, std::uint64_t stream, std::uint64_t first_block,
                   int count, std::uint64_t* out);

class Rng {
 public:
  using result_type = std::uint64_t;
  // 128 blocks (2 KiB of words): a kernel pass of 32 blocks has a fixed cost that made a word 1.17 ns
  // against 0.91 ns at 128 per call (2-core Intel VM, AVX-512), and bulk normals 8% slower.
  static constexpr int kMaxBlocks = 128;

  Rng(std::uint64_t master_seed, std::uint64_t stream_id) : seed_(master_seed), stream_(stream_id) {}

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  result_type operator()() {
    if (next_ == filled_) refill();
    return buffer_[next_++];
  }

  // Bulk access for samplers that consume many words: the buffered words not drawn yet (refilled when
  // none are left), of which `skip(n)` marks the first n drawn. Equivalent to n calls of operator().
  std::span<const std::uint64_t> pending() {
    if (next_ == filled_) refill();
    return {buffer_.data() + next_, static_cast<std::size_t>(filled_ - next_)};
  }
  void skip(std::size_t n) { next_ += static_cast<int>(n); }

  std::uint64_t seed() const { return seed_; }
  std::uint64_t stream() const { return stream_; }

  // A child stream for a sub-task (e.g. one role inside a trial): keyed by the same seed, its id is
  // derived from this stream's id and `role` by `combine_stream`.
  Rng child(std::string_view role) const;

 private:
  void refill();

  std::uint64_t seed_;
  std::uint64_t stream_;
  std::uint64_t block_ = 0;  // the next block to compute
  int blocks_ = 0;           // blocks per refill: 1, 2, 4, ... kMaxBlocks
  int next_ = 0;
  int filled_ = 0;
  std::array<std::uint64_t, 2 * kMaxBlocks> buffer_;
};

// Fixed, documented derivation of stream ids from tuples.
//   hash_name(s)        = FNV-1a 64 of the bytes of s
//   combine_stream(h, v) = splitmix64(h ^ (v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)))
//   stream_id(experiment, cell, algorithm, trial, role) =
//       combine(combine(combine(combine(hash_name(experiment), cell), hash_name(algorithm)), trial),
//               hash_name(role))
// Changing any of these changes every stored result: treat them as frozen.
std::uint64_t hash_name(std::string_view name);
std::uint64_t splitmix64(std::uint64_t x);
std::uint64_t combine_stream(std::uint64_t h, std::uint64_t v);
std::uint64_t stream_id(std::string_view experiment, std::uint64_t cell, std::string_view algorithm,
                        std::uint64_t trial, std::string_view role);

}  // namespace dpb::core
