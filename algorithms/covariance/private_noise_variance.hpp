#pragma once
// cai2024 §5.3: a private estimate of the nuisance variance sigma^2 from the bulk of the sample
// spectrum. The non-private estimator (after Ke et al. 2023) is the least-squares fit of the bulk
// eigenvalues lambda_k(Shat) to the Marchenko–Pastur quantiles q_k,
//   sigmahat^2 = sum_{k in K} q_k lambda_k(Shat) / sum_{k in K} q_k^2,  K = {(p∧n)/4 <= k <= 3(p∧n)/4},
// and the private one is |sigmahat^2 + N(0, s^2)| with s the Gaussian-mechanism scale for the
// sensitivity Delta3 of Thm 5.1 (spec: cai2024 §2.4). Private only under the model, like Algorithm 1.
#include <Eigen/Dense>
#include <memory>

#include "algorithms/covariance/spiked_inputs.hpp"
#include "algorithms/registry.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

enum class BulkRange {
  inner,  // ceil((p∧n)/4) <= k <= floor(3(p∧n)/4): exactly the printed inequalities; spec: cai2024 A10
  outer,  // floor((p∧n)/4) <= k <= ceil(3(p∧n)/4) (k >= 1): one more index at each end where not integral
};

// Every constant of the §5.3 module (spec: cai2024 §8.1 item 6).
struct NoiseVarianceParams {
  // Delta3 constant, unspecified by the paper. The proof of Thm 5.1 (Cauchy–Schwarz, then Hoffman–
  // Wielandt) gives |sigmahat^2 - sigmahat^2'| <= ||Shat - Shat'||_F / ||q_K||_2 <= Delta2 / ||q_K||_2,
  // and ||q_K||_2^2 >= 0.355 (p∧n) for every ratio p/n (smallest at ratio 1), so with Delta2's C3 = 3
  // the constant C3 sqrt(p∧n) / ||q_K||_2 is at most 5.03: C4 = 6 inherits Delta2's calibration.
  // Re-measured in private_noise_variance_test.cpp.
  double C4 = 6.0;
  double lambda = 0;           // > 0: public lambda for Delta3; 0: the oracle's
  double sigma2 = 0;           // > 0: public sigma^2 for Delta3 (circular, spec: cai2024 A5); 0: the oracle's
  bool shift_by_rank = false;  // use lambda_{k+r} (eigenvalue sticking) instead of the printed lambda_k (A10)
  BulkRange range = BulkRange::inner;
  double quadrature_tolerance = 1e-10;
  GaussianCalibration calibration = kCai2024Calibration;
};

// The Marchenko–Pastur weights: q[j] = q_{first + j}, the k/(p∧n)-upper quantile of the zero-excluded
// MP law with ratio p/n and scale 1, for k = first, first + 1, ... in K. Throws dpb::InvalidArgument
// when K is empty (p∧n < 2).
struct BulkQuantiles {
  Eigen::Index first = 1;
  Eigen::VectorXd q;
};
BulkQuantiles bulk_quantiles(Eigen::Index p, Eigen::Index n, BulkRange range, double tolerance);

// sigmahat^2 from the eigenvalues of Shat in descending order (at least last k + shift of them).
double bulk_noise_variance(const Eigen::VectorXd& eigenvalues_descending, const BulkQuantiles& weights,
                           Eigen::Index shift);

struct NoiseVarianceRelease {
  double nonprivate = 0;  // sigmahat^2
  double noisy = 0;       // sigmahat^2 + N(0, noise_sd^2), before the absolute value
  double value = 0;       // sigmatil^2 = |noisy| (post-processing)
  double noise_sd = 0;
};
// One draw of the private estimator: a single standard normal from `rng`, by the Gaussian mechanism with
// entry `release` (sd in noise_scale), recorded in `ledger`.
NoiseVarianceRelease private_noise_variance(const Eigen::VectorXd& eigenvalues_descending,
                                            const BulkQuantiles& weights, Eigen::Index shift,
                                            const LedgerEntry& release, Ledger& ledger, core::Rng& rng);

// `cai2024.private_noise_variance`: spends the whole budget it is given on sigmatil^2 (the paper's
// (eps/3, delta/3) inside the private-sigma^2 Algorithm 1). Estimate.scalar = sigmatil^2.
std::unique_ptr<Estimator> make_private_noise_variance(NoiseVarianceParams params);

}  // namespace dpb::alg
