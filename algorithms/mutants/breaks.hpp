#pragma once
// Breaks several mutants share: a miscalibrated budget, and bounds computed from the private data
// itself (without privacy) where the real algorithm uses a public bound.
#include <functional>
#include <string>

#include "algorithms/privacy.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg::mutants {

// "Scale eps instead of 1/eps": a mechanism calibrated at 1/eps adds noise of scale Delta eps where
// Delta/eps was due (exactly so for the Laplace and the classical Gaussian calibration).
Privacy inverted_epsilon(const Privacy& asked);

// "Noise scaled by `factor`" (< 1: too little) for a mechanism with the analytic Gaussian calibration: the
// budget (eps', delta) at which it adds `factor` times the noise it adds at `asked`. The mechanism's own
// ledger entry then says it was calibrated for eps' > eps: the ledger shows the break.
Privacy noise_scaled_budget(const Privacy& asked, double factor);
// The same as a mutant's break_privacy, remembering the last budget per thread (the bisection costs more
// than a run at small n).
std::function<Privacy(const Privacy& asked, const Input& in)> scaled_noise(double factor);

// Non-private statistics of the input, each throwing dpb::InvalidArgument naming `owner` when the input
// lacks the data it reads. Each records itself in `ledger` as an exact release (no noise; unbounded
// sensitivity), which is how a mutant's ledger shows the break.
// max_i ||x_i||^2 over the columns of Input::X.
double max_squared_norm(const Input& in, const std::string& owner, Ledger& ledger);
// max_ij |x_ij| over Input::X.
double max_abs_entry(const Input& in, const std::string& owner, Ledger& ledger);
// The largest eigenvalue of the sample covariance (1/n) sum_i (x_i - xbar)(x_i - xbar)^T of Input::X.
double top_sample_covariance_eigenvalue(const Input& in, const std::string& owner, Ledger& ledger);
// max_i ||A_i||_F over Input::samples: no entry of A_i Q, Q orthonormal, is larger.
double max_sample_matrix_frobenius(const Input& in, const std::string& owner, Ledger& ledger);

}  // namespace dpb::alg::mutants
