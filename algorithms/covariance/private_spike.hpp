#pragma once
// cai2024 §7.2: a private estimate of the signal strength lambda. The paper gives no formula; this is
// the spec's recommended one (spec: cai2024 §2.6, A8):
//   lambdatil = (1/r) sum_{k<=r} (lambda_k(Shat) + Z_k) - sigma^2,
// Z_1..Z_r iid Gaussian-mechanism noise for the l2 sensitivity Delta2 of the eigenvalue vector
// (Lemma 4), at the budget the estimator is given. Delta2 depends on lambda itself: it reads a
// public upper bound (or the oracle's lambda in simulation). Private only under the model.
#include <Eigen/Dense>
#include <memory>

#include "algorithms/covariance/spiked_inputs.hpp"
#include "algorithms/registry.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct PrivateSpikeParams {
  double C3 = kDelta2Constant;  // Delta2 constant; spec: cai2024 A1
  double lambda_bound = 0;      // > 0: public upper bound on lambda for Delta2; 0: the oracle's lambda
  double sigma2 = 0;            // > 0: public sigma^2 (Delta2 and the subtraction); 0: the oracle's
  bool subtract_sigma2 = true;  // false: the MNIST section's literal average (spec: cai2024 A8)
  GaussianCalibration calibration = kCai2024Calibration;
};

struct SpikeRelease {
  Eigen::VectorXd noisy;  // lambda_k(Shat) + Z_k, k = 1..r (the released vector)
  double value = 0;       // lambdatil
};

// Draws Z_1..Z_r (in order) from `rng` by the Gaussian mechanism with entry `release` (sd in noise_scale),
// recorded in `ledger`; eigenvalues in descending order, at least r of them. `subtracted` is the sigma^2
// taken off the mean (0 for the literal average).
SpikeRelease private_spike(const Eigen::VectorXd& eigenvalues_descending, Eigen::Index r, double subtracted,
                           const LedgerEntry& release, Ledger& ledger, core::Rng& rng);

// `cai2024.private_spike`: Estimate.scalar = lambdatil, eigenvalues = the noisy top-r eigenvalues of
// Shat sorted descending.
std::unique_ptr<Estimator> make_private_spike(PrivateSpikeParams params);

}  // namespace dpb::alg
