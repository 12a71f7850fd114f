#include "core/rng.hpp"

#include <Random123/philox.h>

namespace dpb::core {

void Rng::refill() {
  r123::Philox4x32 philox;
  const r123::Philox4x32::key_type key = {{static_cast<std::uint32_t>(seed_),
                                           static_cast<std::uint32_t>(seed_ >> 32)}};
  const r123::Philox4x32::ctr_type ctr = {
      {static_cast<std::uint32_t>(block_), static_cast<std::uint32_t>(block_ >> 32),
       static_cast<std::uint32_t>(stream_), static_cast<std::uint32_t>(stream_ >> 32)}};
  const auto out = philox(ctr, key);
  buffer_[0] = (static_cast<std::uint64_t>(out[1]) << 32) | out[0];
  buffer_[1] = (static_cast<std::uint64_t>(out[3]) << 32) | out[2];
  ++block_;
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
