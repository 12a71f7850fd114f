#pragma once
// baseline.nonprivate_pca: the top-k eigenvectors of the sample second moment (1/n) sum_i A_i. NOT
// differentially private; the reference every private estimator is compared with (dugler2026 §7,
// cai2024 §6 "non-private" curves).
#include "algorithms/registry.hpp"

namespace dpb::alg::baselines {

AlgorithmEntry nonprivate_pca_entry();

}  // namespace dpb::alg::baselines
