#pragma once
// cai2024 Algorithm 1: differentially private PCA and covariance estimation under the spiked model
// by the Gaussian mechanism on the empirical spectral projector (for U) and on the projected sample
// covariance (for the eigenvalues "up to rotation"), with sensitivities Delta1 and Delta2 that hold
// only with high probability under the model (spec: cai2024 §2.2, §2.3, §3.1).
//
// Privacy scope: under_model_assumptions. There is no clipping; against an arbitrary replacement of
// one sample the sensitivity of Util^T Shat Util is unbounded (spec: cai2024 §2.7, A2).
#include <Eigen/Dense>
#include <memory>

#include "algorithms/covariance/spiked_inputs.hpp"
#include "algorithms/covariance/spiked_sensitivities.hpp"
#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/registry.hpp"
#include "core/linalg.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

// Every constant of Algorithm 1 (spec: cai2024 §8.1 items 1-5).
struct GaussianMechanismParams {
  double C2 = 4.0;    // Delta1 constant; spec: cai2024 A1 calibrated default (C2 = 3 with C5 = 4 also safe)
  double C3 = kDelta2Constant;  // Delta2 constant; spec: cai2024 A1
  double C5 = 1.0;    // log-n multiplier in Delta1's r + C5 log n; the paper's §6.1 simulations use 4
  double Delta1 = 0;  // > 0: use this Delta1 instead of the formula
  double Delta2 = 0;  // > 0: use this Delta2 instead of the formula
  double lambda = 0;  // > 0: public signal strength for the sensitivities; 0: the oracle's
  double sigma2 = 0;  // > 0: public noise variance (sensitivities and steps 3-4); 0: the oracle's
  double pca_share = 0.5;  // share of (eps, delta) spent on Util (step 2); the rest on Lamtil (step 3)
  core::EigenOrder selection = core::EigenOrder::algebraic;  // SVD_r in step 2; spec: cai2024 A9
  bool psd_projection = false;  // optional post-processing of Sigmatil; the paper has none (§2.2)
  GaussianCalibration calibration = kCai2024Calibration;
};

// What steps 2-4 need once Shat is formed.
struct GaussianMechanismSettings {
  Eigen::Index r = 1;
  double sigma2 = 0;  // the sigma^2 subtracted in step 3 and added back in step 4
  // The two Gaussian releases (spiked_release): noise_scale is the sd of each upper-triangle entry of Z
  // (step 2, sensitivity Delta1) and of E (step 3, sensitivity Delta2).
  LedgerEntry projector =
      gaussian_entry("Util: Gaussian mechanism on Uhat Uhat^T (step 2)", 0, 0, {0, 0, Neighbours::replace});
  LedgerEntry eigenvalue = gaussian_entry("Lamtil: Gaussian mechanism on Util^T Shat Util (step 3)", 0, 0,
                                          {0, 0, Neighbours::replace});
  core::EigenOrder selection = core::EigenOrder::algebraic;
  bool psd_projection = false;
};

struct GaussianMechanismRelease {
  Eigen::MatrixXd noisy_projector;    // Uhat Uhat^T + Z: the step-2 release (Util is post-processing)
  Eigen::MatrixXd U;                  // Util, p x r
  Eigen::MatrixXd Lambda;             // Lamtil, r x r, symmetric, not diagonal
  Eigen::MatrixXd Sigma;              // Sigmatil, p x p (indefinite unless psd_projection)
  Eigen::VectorXd spike_eigenvalues;  // eigenvalues of Lamtil, descending (after the PSD projection)
  int psd_clipped = 0;                // eigenvalues the PSD projection raised
};

// Throws dpb::InvalidArgument naming `owner` unless 1 <= r and 2r <= p (cai2024 (C-r)).
void require_spike_rank(Eigen::Index r, Eigen::Index p, const char* owner);

// Steps 1 (the eigenvectors Uhat of Shat) to 4 of Algorithm 1 for a given sample second moment
// Shat = X X^T / n. Draws Z (p(p+1)/2 normals, upper triangle column by column) and then E
// (r(r+1)/2 normals) from `rng`, each by the symmetric Gaussian mechanism, recorded in `ledger`. Throws
// dpb::InvalidArgument unless Shat is square, 2r <= p and the noise scales are finite and >= 0.
GaussianMechanismRelease gaussian_mechanism_release(const Eigen::MatrixXd& Shat,
                                                    const GaussianMechanismSettings& settings, Ledger& ledger,
                                                    core::Rng& rng);

// Delta1 and Delta2 for these parameters: the given overrides, else the Lemma 3 / Lemma 4 formulas.
struct AlgorithmOneSensitivities {
  double Delta1 = 0;
  double Delta2 = 0;
};
AlgorithmOneSensitivities algorithm_one_sensitivities(const GaussianMechanismParams& params,
                                                      const SpikedSizes& sizes);

// Writes a release into an Estimate (Q, Sigma, eigenvalues as below) and its diagnostics counters.
void fill_estimate(Estimate& estimate, const GaussianMechanismRelease& release, double sigma2);

// `cai2024.gaussian_mechanism` (see the registry entry for the parameters). Its Estimate: Q = Util,
// Sigma = Sigmatil, eigenvalues = the top-r eigenvalues of Sigmatil (eig(Lamtil) + sigma^2, which
// include sigma^2 like core::ModelInfo::eigenvalues).
std::unique_ptr<Estimator> make_gaussian_mechanism_pca(GaussianMechanismParams params);

}  // namespace dpb::alg
