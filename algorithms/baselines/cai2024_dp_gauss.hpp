#pragma once
// cai2024 §6 competitors (spec cai2024 §2.8): Analyze Gauss on the globally scaled sample second
// moment Shat / s, top-r eigenvectors.
//   baseline.dp_gauss       s = (r + C5 log n) lambda + p sigma^2 (cai2024 Lemma 8 bound on max ||X_i||^2);
//   baseline.dp_gauss_star  s = max_i ||X_i||^2, data-dependent and unprivatised: NOT DP, a benchmark.
#include "algorithms/registry.hpp"

namespace dpb::alg::baselines {

AlgorithmEntry cai2024_dp_gauss_entry();
AlgorithmEntry cai2024_dp_gauss_star_entry();

}  // namespace dpb::alg::baselines
