#pragma once
// cai2024 §6 competitors (spec cai2024 §2.8): Analyze Gauss on the globally scaled sample second
// moment Shat / s, top-r eigenvectors.
//   baseline.dp_gauss       s = (r + C5 log n) lambda + p sigma^2 (cai2024 Lemma 8 bound on max ||X_i||^2);
//   baseline.dp_gauss_star  s = max_i ||X_i||^2, data-dependent and unprivatised: NOT DP, a benchmark.
#include <Eigen/Dense>
#include <functional>
#include <memory>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/registry.hpp"
#include "core/rng.hpp"

namespace dpb::alg::baselines {

AlgorithmEntry cai2024_dp_gauss_entry();
AlgorithmEntry cai2024_dp_gauss_star_entry();

// The noisy release of the scaled second moment A = (1/n) sum_i c_i Xs_i Xs_i^T whose top-r
// eigenpairs DP-Gauss returns. `release` is the Analyze-Gauss ledger entry DP-Gauss calibrated for
// `in.privacy` (noise_scale: the sd; sensitivity: the true l2 sensitivity of A's upper triangle); the real
// baselines pass both to analyze_gauss_release, which records it in `ledger`. This seam lets
// algorithms/mutants swap in a broken release, which must record in `ledger` the release it really makes.
using SecondMomentRelease = std::function<Eigen::MatrixXd(
    const Eigen::MatrixXd& A, const LedgerEntry& release, const Input& in, Ledger& ledger, core::Rng& rng)>;
// baseline.dp_gauss from its resolved parameters, releasing A through `release`.
std::unique_ptr<Estimator> make_cai2024_dp_gauss(const core::ParamMap& params, SecondMomentRelease release);

}  // namespace dpb::alg::baselines
