#include "lowerbounds/constructions/binary_codes.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>

#include "core/errors.hpp"
#include "core/rng.hpp"

namespace dpb::lower {
namespace {

constexpr int bits_per_block = 64;
// Lexicographic scans index candidates by a 64-bit integer (word entry 0 = most significant bit).
constexpr int max_lexicographic_length = 63;

// A codeword packed into 64-bit blocks, so that a distance is a few popcounts.
using PackedWord = std::vector<std::uint64_t>;

PackedWord pack(const Codeword& w) {
  PackedWord packed((w.size() + bits_per_block - 1) / bits_per_block, 0);
  for (std::size_t j = 0; j < w.size(); ++j)
    if (w[j]) packed[j / bits_per_block] |= std::uint64_t{1} << (j % bits_per_block);
  return packed;
}

int packed_distance(const PackedWord& a, const PackedWord& b) {
  int distance = 0;
  for (std::size_t i = 0; i < a.size(); ++i) distance += std::popcount(a[i] ^ b[i]);
  return distance;
}

// Number of candidates a lexicographic scan visits, saturating at max_lexicographic_candidates + 1.
std::size_t candidate_count(int length, std::optional<int> weight) {
  const std::size_t over = max_lexicographic_candidates + 1;
  if (!weight) return length >= 63 ? over : std::min(over, std::size_t{1} << length);
  double binom = 1;  // binom(length, weight) in floating point: only compared with the limit
  for (int i = 1; i <= *weight; ++i) binom = binom * (length - *weight + i) / i;
  return binom > static_cast<double>(max_lexicographic_candidates)
             ? over
             : static_cast<std::size_t>(std::llround(binom));
}

Codeword word_from_integer(std::uint64_t x, int length) {
  Codeword w(length);
  for (int j = 0; j < length; ++j) w[j] = static_cast<std::uint8_t>((x >> (length - 1 - j)) & 1U);
  return w;
}

// Next larger integer with the same number of set bits (Gosper's hack); x != 0.
std::uint64_t next_same_weight(std::uint64_t x) {
  const std::uint64_t lowest = x & (~x + 1);
  const std::uint64_t ripple = x + lowest;
  return ripple | (((x ^ ripple) >> 2) / lowest);
}

// Calls visit(word) on every candidate in increasing integer order (= lexicographic word order) until it
// returns false.
template <class Visit>
void scan_lexicographic(int length, std::optional<int> weight, Visit visit) {
  const std::uint64_t end = std::uint64_t{1} << length;
  if (!weight) {
    for (std::uint64_t x = 0; x < end; ++x)
      if (!visit(word_from_integer(x, length))) return;
    return;
  }
  if (*weight == 0) {
    visit(word_from_integer(0, length));
    return;
  }
  for (std::uint64_t x = (std::uint64_t{1} << *weight) - 1; x < end; x = next_same_weight(x))
    if (!visit(word_from_integer(x, length))) return;
}

Codeword random_word(int length, std::optional<int> weight, core::Rng& rng) {
  Codeword w(length, 0);
  if (!weight) {
    for (auto& bit : w) bit = static_cast<std::uint8_t>(rng() >> 63);
    return w;
  }
  // Partial Fisher–Yates: the first `weight` entries of a uniform permutation form a uniform subset.
  std::vector<int> positions(length);
  std::iota(positions.begin(), positions.end(), 0);
  for (int i = 0; i < *weight; ++i) {
    const auto remaining = static_cast<std::uint64_t>(length - i);
    const int pick = i + static_cast<int>(rng() % remaining);  // modulo bias <= length / 2^64: negligible
    std::swap(positions[i], positions[pick]);
    w[positions[i]] = 1;
  }
  return w;
}

void validate(int length, std::optional<int> weight, int min_distance, GreedyOrder order,
              std::size_t max_words) {
  if (length < 1) throw InvalidArgument(fmt::format("greedy_code: length = {} must be >= 1", length));
  if (weight && (*weight < 0 || *weight > length))
    throw InvalidArgument(
        fmt::format("greedy_code: weight = {} must lie in [0, length = {}]", *weight, length));
  if (min_distance < 1)
    throw InvalidArgument(fmt::format("greedy_code: min_distance = {} must be >= 1", min_distance));
  if (max_words < 1) throw InvalidArgument("greedy_code: max_words must be >= 1");
  if (order == GreedyOrder::lexicographic &&
      (length > max_lexicographic_length || candidate_count(length, weight) > max_lexicographic_candidates))
    throw InvalidArgument(fmt::format(
        "greedy_code: a lexicographic scan of length {} visits more than {} candidates; use the random order",
        length, max_lexicographic_candidates));
}

}  // namespace

int hamming_distance(const Codeword& a, const Codeword& b) {
  if (a.size() != b.size())
    throw InvalidArgument(fmt::format("hamming_distance: lengths {} and {} differ", a.size(), b.size()));
  int distance = 0;
  for (std::size_t j = 0; j < a.size(); ++j) distance += (a[j] != b[j]) ? 1 : 0;
  return distance;
}

BinaryCode greedy_code(int length, std::optional<int> weight, int min_distance, GreedyOrder order,
                       std::uint64_t seed, std::size_t max_words) {
  validate(length, weight, min_distance, order, max_words);
  BinaryCode code{length, {}};
  std::vector<PackedWord> kept;
  // Keeps `w` when it is far enough from every kept word; returns whether to go on scanning.
  auto offer = [&](Codeword w) {
    const PackedWord packed = pack(w);
    const bool far = std::all_of(kept.begin(), kept.end(), [&](const PackedWord& k) {
      return packed_distance(k, packed) >= min_distance;
    });
    if (far) {
      kept.push_back(packed);
      code.words.push_back(std::move(w));
    }
    return code.words.size() < max_words;
  };
  if (order == GreedyOrder::lexicographic) {
    scan_lexicographic(length, weight, offer);
  } else {
    core::Rng rng(seed, core::hash_name("greedy_code"));
    for (std::size_t i = 0; i < max_random_candidates && offer(random_word(length, weight, rng)); ++i) {
    }
  }
  return code;
}

CodeCheck verify_code(const BinaryCode& code) {
  CodeCheck check;
  check.size = code.words.size();
  std::vector<PackedWord> packed;
  packed.reserve(code.words.size());
  for (const auto& w : code.words) {
    if (static_cast<int>(w.size()) != code.length)
      throw InvalidArgument(
          fmt::format("verify_code: a word has length {}, the code {}", w.size(), code.length));
    packed.push_back(pack(w));
  }
  for (std::size_t i = 0; i < packed.size(); ++i)
    for (std::size_t j = i + 1; j < packed.size(); ++j) {
      const int distance = packed_distance(packed[i], packed[j]);
      check.min_distance = (i == 0 && j == 1) ? distance : std::min(check.min_distance, distance);
    }
  if (!code.words.empty()) {
    auto weight_of = [](const Codeword& w) { return static_cast<int>(std::count(w.begin(), w.end(), 1)); };
    const int first = weight_of(code.words.front());
    if (std::all_of(code.words.begin(), code.words.end(),
                    [&](const Codeword& w) { return weight_of(w) == first; }))
      check.constant_weight = first;
  }
  return check;
}

Eigen::VectorXd codeword_to_vector(const Codeword& w, double alpha) {
  if (!(alpha >= 0 && alpha <= 1))
    throw InvalidArgument(fmt::format("codeword_to_vector: alpha = {} must lie in [0, 1]", alpha));
  if (std::any_of(w.begin(), w.end(), [](std::uint8_t b) { return b > 1; }))
    throw InvalidArgument("codeword_to_vector: codeword entries must be 0 or 1");
  const auto weight = static_cast<double>(std::count(w.begin(), w.end(), 1));
  if (weight == 0) throw InvalidArgument("codeword_to_vector: the codeword must have weight >= 1");
  Eigen::VectorXd f(static_cast<Eigen::Index>(w.size()) + 1);
  f(0) = std::sqrt(1 - alpha * alpha);
  for (std::size_t j = 0; j < w.size(); ++j)
    f(static_cast<Eigen::Index>(j) + 1) = alpha * w[j] / std::sqrt(weight);
  return f;
}

}  // namespace dpb::lower
