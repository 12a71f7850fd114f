#include "lowerbounds/constructions/kumar2025_packing.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::lower {

namespace {

double log_binomial(double a, double b) {
  return std::lgamma(a + 1) - std::lgamma(b + 1) - std::lgamma(a - b + 1);
}

}  // namespace

double Thm4Packing::log_size() const { return std::max(log_size_built, log_size_guarantee); }

double log_gv_code_size(int m) {
  if (m < 1) throw InvalidArgument(fmt::format("Lemma 20 code: m = {} must be >= 1", m));
  // log V by log-sum-exp over t = 0 .. ceil(m/4) - 1 (the t = 0 term is the word itself).
  double log_v = 0;  // t = 0: binom(m,0) binom(2m,0) = 1
  for (int t = 1; 4 * t < m; ++t) {
    const double term = log_binomial(m, t) + log_binomial(2.0 * m, t);
    log_v = std::max(log_v, term) + std::log1p(std::exp(-std::abs(log_v - term)));
  }
  return log_binomial(3.0 * m, m) - log_v;
}

Thm4Packing thm4_packing(int d, std::uint64_t seed, std::size_t max_words) {
  if (d < 3 || d % 3 != 0)
    throw InvalidArgument(fmt::format("Thm 4 packing (kumar2025 Lemma 20): need 3 | d, got d = {}", d));
  const int m = d / 3;
  const int min_distance = (m + 1) / 2;  // Hamming distance >= m/2
  const GreedyOrder order = log_binomial(d, m) <= std::log(lexicode_candidate_limit)
                                ? GreedyOrder::lexicographic
                                : GreedyOrder::random;
  Thm4Packing packing;
  packing.code = greedy_code(d, m, std::max(1, min_distance), order, seed, max_words);
  packing.check = verify_code(packing.code);
  packing.log_size_built = std::log(static_cast<double>(packing.check.size));
  packing.log_size_guarantee = log_gv_code_size(m);
  return packing;
}

double thm4_sample_threshold(double log_size, double eps) {
  if (!(eps > 0)) throw InvalidArgument(fmt::format("Thm 4 threshold: eps = {} must be > 0", eps));
  if (!(log_size >= std::log(2.0))) throw InvalidArgument("Thm 4 threshold: the code needs at least 2 words");
  // log(2(|C| - 1)) = log 2 + log|C| + log(1 - 1/|C|)
  return (std::log(2.0) + log_size + std::log1p(-std::exp(-log_size))) / eps;
}

}  // namespace dpb::lower
