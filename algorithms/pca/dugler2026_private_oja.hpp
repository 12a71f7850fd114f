#pragma once
// Private Oja's algorithm with a fixed clip radius R, dugler2026 Algorithm 1 (spec §2.1): Oja on
// (1/B) sum clip_R(A_i Q) plus the symmetric noise Q N + Pi Z, N ~ GOE_k(sigma^2), Z ~ N(0, sigma^2).
#include "algorithms/pca/dugler2026_batch_rules.hpp"
#include "algorithms/pca/dugler2026_common.hpp"
#include "algorithms/pca/dugler2026_learning_rates.hpp"

namespace dpb::alg::dugler2026 {

struct PrivateOjaParams {
  BatchSettings batch;  // Thm 1: B = n / log n
  LearningRateSettings lr;
  double clip_radius = 0;  // R; 0 = Theorem 1's R = C lambda_1 sqrt(dk)(K gamma log^a(ndk/zeta) + 1) (oracle)
  double C = 1.0;          // universal constant of Thm 1's R (unspecified; 1 [inferred])
  double K = 1.0, a = 1.0, zeta = 0.01;
  GaussianCalibration calibration = kDugler2026Calibration;
  // corrected (default): P_{S_Q} applied to the clipped mean, so privacy holds for any input, not only
  // exactly symmetric A_i (spec: dugler2026 ambiguity 12); faithful: the box as printed.
  bool project_onto_SQ = true;
};

// R from the parameters or, when clip_radius = 0, Theorem 1 with lambda_1 and gamma from Input.oracle.
double private_oja_radius(const PrivateOjaParams& p, const Input& in);
// Line 1: sigma = 2 R sqrt(2 log(1.25/delta)) / (B eps) (classical), i.e. the Gaussian mechanism for
// sensitivity 2R/B at (eps, delta).
double private_oja_sigma(const PrivateOjaParams& p, double R, Eigen::Index B, const Privacy& privacy);

struct PrivateOjaWorkspace {
  Eigen::MatrixXd AQ, kk;  // AQ: one chunk of the batch's products A_i Q, side by side
  Eigen::VectorXd squared_norms;  // ||A_i Q||_F^2 of the chunk's products
  NoiseWorkspace noise;
  void resize(Eigen::Index d, Eigen::Index k);
};
// The bracket of line 6 for the batch [first, first + B) at Q (the seam the noise tests use):
// out = (1/B) sum clip_R(A_i Q) [projected onto S_Q when corrected] + Q N + Pi Z, the noise of sd
// noise.noise_scale drawn by the Gaussian mechanism, which records `noise` in `ledger`. Returns the
// number of clipped matrices. Throws dpb::InvalidArgument, before anything is written or drawn, unless Q and
// out are d x k matrices that do not overlap (core::check_apply_shapes).
Eigen::Index private_oja_direction(const core::SampleMatrices& S, Eigen::Index first, Eigen::Index B,
                                   const Eigen::MatrixXd& Q, double R, const LedgerEntry& noise, bool project,
                                   Ledger& ledger, core::Rng& rng, PrivateOjaWorkspace& ws,
                                   Eigen::Ref<Eigen::MatrixXd> out);
// The ledger entry of one step's Gaussian (Lemma 9, Theorem 4): sensitivity 2R/B of the clipped mean in
// Frobenius norm, sd sigma, calibrated for (eps, delta); disjoint, as every step reads its own batch.
LedgerEntry private_oja_entry(double R, Eigen::Index B, double sigma, const Privacy& privacy);

Estimate private_oja(const Input& in, const PrivateOjaParams& p, core::Rng& rng);
PrivacyClaim private_oja_claim(const PrivateOjaParams& p, const Input& in);

}  // namespace dpb::alg::dugler2026
