#pragma once
// The Laplace mechanism and kumar2025's bounded Laplace noise.
#include <Eigen/Dense>

#include "algorithms/mechanisms/ledger.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

// b = Delta / eps: releasing f(D) + Lap(b) per coordinate is eps-DP for l1 sensitivity Delta
// (Dwork & Roth Thm 3.6). Throws dpb::InvalidArgument unless Delta and eps are finite and > 0.
double laplace_scale(double sensitivity, double epsilon);

// The Laplace mechanism on a scalar: records `entry` (a Mechanism::laplace or propose_test_release entry;
// noise_scale is b) and returns value + Lap(b).
double laplace_mechanism(double value, const LedgerEntry& entry, Ledger& ledger, core::Rng& rng);
// The same on a vector or matrix: iid Lap(b) added to every entry (entry.sensitivity is then in l1).
void laplace_mechanism(Eigen::Ref<Eigen::MatrixXd> value, const LedgerEntry& entry, Ledger& ledger,
                       core::Rng& rng);

// The bounded Laplace mechanism on a scalar: records `entry` (Mechanism::bounded_laplace; noise_scale is
// lambda, truncation is tau) and returns value + BoundedLaplace(lambda, tau).
double bounded_laplace_mechanism(double value, const LedgerEntry& entry, Ledger& ledger, core::Rng& rng);

// One draw of BoundedLaplace(lambda, tau): X ~ Lap(lambda) conditioned on |X| <= tau, density
// exp(-|x|/lambda) / (2 lambda (1 - exp(-tau/lambda))) on [-tau, tau] (spec: kumar2025 §1.3).
// Exact inverse-CDF sampler: a fair sign, then |X| = -lambda log(1 - U (1 - exp(-tau/lambda))).
// lambda and tau finite and > 0.
double bounded_laplace(core::Rng& rng, double lambda, double tau);

// The smallest truncation level for which adding BoundedLaplace(Delta/eps, tau) to a scalar of
// sensitivity Delta is (eps, delta)-DP: tau = (Delta/eps) log(4/delta) (spec: kumar2025 Fact 2).
// Delta, eps finite and > 0; delta in (0, 1).
double bounded_laplace_min_tau(double sensitivity, double epsilon, double delta);

}  // namespace dpb::alg
