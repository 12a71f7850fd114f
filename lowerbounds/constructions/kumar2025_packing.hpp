#pragma once
// The packing behind kumar2025 Theorem 4 (spec: kumar2025 §5.2 Lemma 20, "Explicit constant"): a code of
// constant-weight words (length d = 3m, weight m, pairwise Hamming distance >= m/2) built with
// binary_codes' greedy_code, and the sample size below which no eps-DP algorithm can identify its member:
// n* = log(2(|C| - 1)) / eps (group privacy over all n samples; Proposition 1 with alpha = 1).
#include <cstdint>

#include "lowerbounds/constructions/binary_codes.hpp"

namespace dpb::lower {

struct Thm4Packing {
  BinaryCode code;
  CodeCheck check;                // measured size, minimum distance and weight
  double log_size_built = 0;      // log |C| of the code built
  double log_size_guarantee = 0;  // Gilbert–Varshamov: log of the size every maximal such code reaches
  // log of the larger of the two: the built code certifies the small cases, the GV count (a proven
  // bound on the best such code, which is what Thm 4 quantifies over) takes over once max_words caps the
  // built code.
  double log_size() const;
};

// Lemma 20's parameters for dimension d: length d, weight d/3, minimum distance ceil(d/6). Lexicographic
// greedy (a lexicode) when binom(d, d/3) <= lexicode_candidate_limit, seeded random greedy otherwise,
// stopping at max_words. Throws dpb::InvalidArgument unless 3 | d and d >= 3.
inline constexpr double lexicode_candidate_limit = 1 << 17;
Thm4Packing thm4_packing(int d, std::uint64_t seed, std::size_t max_words);

// Gilbert–Varshamov for weight-m words of length 3m at distance >= m/2: a maximal code C has
// |C| * V >= binom(3m, m), V = sum_{t < m/4} binom(m, t) binom(2m, t) (words at distance 2t < m/2 from
// a given one). Returns log(binom(3m, m) / V), computed in log space.
double log_gv_code_size(int m);

// n* = log(2(|C| - 1)) / eps for a code with log|C| = log_size >= log 2; eps > 0.
double thm4_sample_threshold(double log_size, double eps);

}  // namespace dpb::lower
