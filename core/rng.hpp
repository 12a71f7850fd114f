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
#include <array>
#include <cstdint>
#include <limits>
#include <string_view>

namespace dpb::core {

class Rng {
 public:
  using result_type = std::uint64_t;

  Rng(std::uint64_t master_seed, std::uint64_t stream_id) : seed_(master_seed), stream_(stream_id) {}

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  result_type operator()() {
    if (next_ == 2) refill();
    return buffer_[next_++];
  }

  std::uint64_t seed() const { return seed_; }
  std::uint64_t stream() const { return stream_; }

  // A child stream for a sub-task (e.g. one role inside a trial): keyed by the same seed, its id is
  // derived from this stream's id and `role` by `combine_stream`.
  Rng child(std::string_view role) const;

 private:
  void refill();

  std::uint64_t seed_;
  std::uint64_t stream_;
  std::uint64_t block_ = 0;
  std::array<std::uint64_t, 2> buffer_{};
  int next_ = 2;
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
