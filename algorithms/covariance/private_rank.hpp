#pragma once
// cai2024 §7.1: private rank selection by the eigen-ratio estimator
//   rhat = argmax_{1 <= k <= R} (lambda_k(Shat) + Z_k) / (lambda_{k+1}(Shat) + Z_{k+1}),
// Z_1..Z_{R+1} iid Gaussian-mechanism noise for the l2 sensitivity Delta2 of the eigenvalue vector
// (Lemma 4), computed with R in place of the unknown r (spec: cai2024 §2.5, A7). Private only under
// the model, like Algorithm 1.
#include <Eigen/Dense>
#include <memory>

#include "algorithms/covariance/spiked_inputs.hpp"
#include "algorithms/registry.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct PrivateRankParams {
  long long R = 10;   // postulated upper bound on r, 1 <= R <= min(n, p - 1)
  double C3 = kDelta2Constant;  // Delta2 constant; spec: cai2024 A1
  double lambda = 0;  // > 0: public lambda for Delta2; 0: the oracle's
  double sigma2 = 0;  // > 0: public sigma^2 for Delta2; 0: the oracle's
  GaussianCalibration calibration = kCai2024Calibration;
};

struct RankRelease {
  Eigen::Index rank = 1;  // rhat in 1..R
  Eigen::VectorXd noisy;  // lambda_k(Shat) + Z_k, k = 1..R+1 (the released vector)
  int guarded = 0;        // ratios with a non-positive denominator, treated as -inf (spec: cai2024 §2.5)
  bool fallback = false;  // every ratio was guarded: rhat = 1
};

// Draws Z_1..Z_{R+1} (in order) from `rng` by the Gaussian mechanism with entry `release` (sd in
// noise_scale), recorded in `ledger`; eigenvalues in descending order, at least R + 1 of them.
RankRelease private_rank(const Eigen::VectorXd& eigenvalues_descending, Eigen::Index R,
                         const LedgerEntry& release, Ledger& ledger, core::Rng& rng);

// `cai2024.private_rank`: spends the whole budget it is given (the paper's noise
// 8 Delta2^2 log(2.5/delta)/eps^2 is this at (eps/2, delta/2)). Estimate.scalar = rhat.
std::unique_ptr<Estimator> make_private_rank(PrivateRankParams params);

}  // namespace dpb::alg
