#pragma once
// Binary codes for packing constructions: greedy Gilbert–Varshamov codes (all words, or constant weight),
// their verification, and the liu2022 Lemma C.3 / C.5 map f(w) from codewords to unit vectors.
//
// Feasibility limits (why `greedy_code` never enumerates more than it must):
//   - lexicographic order enumerates every candidate in order, so it is allowed only while the number of
//     candidates (2^length, or binom(length, weight)) is at most `max_lexicographic_candidates` (and
//     length <= 63, candidates being indexed by a 64-bit integer);
//   - random order draws `max_random_candidates` candidates uniformly (with replacement; a duplicate is
//     rejected by the distance test since min_distance >= 1), so any length works.
// Each candidate costs O(|kept| * length) distance computations.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Dense>

namespace dpb::lower {

using Codeword = std::vector<std::uint8_t>;  // entries 0/1
struct BinaryCode {
  int length = 0;
  std::vector<Codeword> words;
};
enum class GreedyOrder { lexicographic, random };

// Upper limits on the candidates scanned (see the file comment).
inline constexpr std::size_t max_lexicographic_candidates = std::size_t{1} << 22;
inline constexpr std::size_t max_random_candidates = std::size_t{1} << 16;

// Greedy Gilbert–Varshamov code: scan candidate words (all words of length `length`, or only those of
// weight *weight when given) in lexicographic or seeded random order and keep each one at Hamming
// distance >= min_distance from all kept words, stopping at max_words. `seed` is used only by the random
// order (core::Rng stream "greedy_code"). Throws InvalidArgument on length < 1, weight outside
// [0, length], min_distance < 1, max_words < 1, or a lexicographic scan beyond the limit above.
BinaryCode greedy_code(int length, std::optional<int> weight, int min_distance, GreedyOrder order,
                       std::uint64_t seed, std::size_t max_words);

struct CodeCheck {
  std::size_t size = 0;
  int min_distance = 0;  // 0 for a code of fewer than two words
  std::optional<int> constant_weight;
};
// Measured size, minimum pairwise distance, and the common weight when every word has the same one.
CodeCheck verify_code(const BinaryCode& code);

// Number of positions where a and b differ; throws InvalidArgument if their lengths differ.
int hamming_distance(const Codeword& a, const Codeword& b);

// liu2022 Lemma C.5 map (spec: liu2022 §5.2, [000] App. C.1.1): for a codeword w of weight l >= 1,
// f(w) = (sqrt(1 - alpha^2), alpha w / sqrt(l)) in R^{length + 1}. It is a unit vector with a first
// coordinate > 0 for alpha < 1 (no antipodal pairs), and ||f(w) - f(w')||^2 = alpha^2 hamming(w, w') / l for
// w, w' of the same weight l. Throws InvalidArgument unless alpha lies in [0, 1] and w is a nonzero 0/1 word.
Eigen::VectorXd codeword_to_vector(const Codeword& w, double alpha);

}  // namespace dpb::lower
