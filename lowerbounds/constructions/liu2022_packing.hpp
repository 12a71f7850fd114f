#pragma once
// The explicit packing of liu2022 Lemma C.3 via Lemma C.5 ([000] App. C.1.1; spec: liu2022 §5.2): a
// constant-weight code Theta in {0,1}^{d-1} with weight l = floor((d-1)/8) and pairwise Hamming distance
// >= ceil(l/2), built by the greedy random Gilbert scan (the spec's numerical recipe), mapped to unit
// vectors by f(w) = (sqrt(1 - alpha^2), alpha w/sqrt(l)). The same code serves every alpha.
#include <cstddef>
#include <cstdint>

#include "lowerbounds/constructions/binary_codes.hpp"

namespace dpb::lower {

// Smallest dimension with l = floor((d-1)/8) >= 1.
inline constexpr int liu2022_packing_min_dimension = 9;

struct Liu2022Code {
  BinaryCode code;
  int weight = 0;       // l
  int min_hamming = 0;  // measured
  int max_hamming = 0;  // measured
  double log_size = 0;  // log |Theta|, measured
};

// Throws InvalidArgument for d < liu2022_packing_min_dimension or max_words < 2, or if the scan finds
// fewer than two words.
Liu2022Code liu2022_lemma_c5_code(int d, std::uint64_t seed, std::size_t max_words);

// Exact pairwise quantities of the packing f(Theta) at a given alpha, from the measured Hamming range:
// <f(w), f(w')> = 1 - alpha^2 H / (2 l) (spec: liu2022 §5.2), so 1 - <v, v'>^2 is smallest at the smallest
// H and largest at the largest H (the inner product stays >= 0 for alpha <= 1 since H <= 2l).
struct PackingGeometry {
  double min_sin = 0;             // min over pairs of sin(v, v')
  double max_one_minus_cos2 = 0;  // max over pairs of 1 - <v, v'>^2
};
PackingGeometry liu2022_packing_geometry(const Liu2022Code& code, double alpha);

}  // namespace dpb::lower
