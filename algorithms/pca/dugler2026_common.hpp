#pragma once
// Primitives shared by the dugler2026 Oja family (spec: dugler2026 §2.0): in-place thin QR, the
// projection P_{S_Q}, the symmetric (GOE) and tangent noise of Algorithms 1-3 (Gaussian calibration is
// mechanisms/gaussian's), a contiguous sub-range of sample matrices (for the two-stage split) and oracle
// reading.
#include <Eigen/Dense>
#include <string>

#include "algorithms/calibration_param.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/registry.hpp"
#include "core/rng.hpp"
#include "core/sample_matrices.hpp"

namespace dpb::alg::dugler2026 {

// The family's Gaussian calibration by default: the classical one as printed (spec: dugler2026 ambiguity 14).
inline constexpr GaussianCalibration kDugler2026Calibration = GaussianCalibration::classical;

using Eigen::Index;

// Y <- the orthonormal factor of the thin QR of Y with a positive diagonal of R (spec §1 "QR(Y)"),
// by Gram-Schmidt with one re-orthogonalisation pass, in place and without allocation. Throws
// dpb::InvalidArgument if Y is rank-deficient (a column within 1e-12 of its norm of the span of the previous
// ones) or not finite.
void orthonormalize_in_place(Eigen::Ref<Eigen::MatrixXd> Y);

// Y <- P_{S_Q}(Y) = Pi_Q Y + Q sym(Q^T Y) = Y - Q skew(Q^T Y) (spec §1 notation). `kk` is a k x k
// scratch matrix (resized only if needed).
void project_onto_SQ(const Eigen::MatrixXd& Q, Eigen::Ref<Eigen::MatrixXd> Y, Eigen::MatrixXd& kk);
// Y <- Pi_Q Y = Y - Q (Q^T Y), the projection onto the tangent space T_Q.
void project_onto_tangent(const Eigen::MatrixXd& Q, Eigen::Ref<Eigen::MatrixXd> Y, Eigen::MatrixXd& kk);

// Preallocated buffers for the noise of one step.
struct NoiseWorkspace {
  Eigen::MatrixXd Z;   // d x k
  Eigen::MatrixXd kk;  // k x k
  void resize(Index d, Index k);
};
// out += Pi_Q Z, Z ~ iid N(0, sigma^2) d x k, sigma = entry.noise_scale, Z drawn by the Gaussian mechanism,
// which records `entry` in `ledger` (the caller's entry: the Frobenius sensitivity of the statistic `out`
// and its sub-budget). Pi_Q Z is isotropic N(0, sigma^2) on T_Q (Lemma 14), so the entry holds for a
// statistic in T_Q. A sensitivity probe is shown `out` before and after the noise.
void add_tangent_noise(const Eigen::MatrixXd& Q, const LedgerEntry& entry, Ledger& ledger, core::Rng& rng,
                       NoiseWorkspace& ws, Eigen::Ref<Eigen::MatrixXd> out);
// out += Q N + Pi_Q Z with Z as above (drawn first) and N ~ GOE_k(sigma^2) (Alg. 1 lines 5-6, Alg. 2
// lines 7-8). By Lemma 1 this is distributed as G Q with G ~ GOE_d(sigma^2). It is at least isotropic
// N(0, sigma^2) on S_Q (Lemma 9), so `entry` holds for a statistic in S_Q.
void add_symmetric_noise(const Eigen::MatrixXd& Q, const LedgerEntry& entry, Ledger& ledger, core::Rng& rng,
                         NoiseWorkspace& ws, Eigen::Ref<Eigen::MatrixXd> out);

// The matrices A_first..A_{first+count-1} of `base`, as SampleMatrices (no copy).
class SampleRange final : public core::SampleMatrices {
 public:
  SampleRange(const core::SampleMatrices& base, Index first, Index count);
  Index n() const override { return count_; }
  Index d() const override { return base_.d(); }
  void apply(Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
             Eigen::Ref<Eigen::MatrixXd> out) const override {
    base_.apply(first_ + i, Q, out);
  }
  void apply_range(Index first, Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                   Eigen::Ref<Eigen::MatrixXd> out) const override;

 private:
  const core::SampleMatrices& base_;
  Index first_, count_;
};

// The matrices G_0..G_{m-1} (d x k each) that PRIVRANGE and TRUNCATEDMEAN read, a chunk at a time:
// either stored side by side in a matrix (no copy), or the products A_{first+l} Q (Pi_Q A_{first+l} Q
// when `tangent`) computed on demand into `buffer`, so that no caller holds all m at once.
// How many of m products A_i Q (d x k each) to produce at a time: about 256 KiB of them, at least one.
Index chunk_length(Index d, Index k, Index m);

class MatrixChunks {
 public:
  using View = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
  MatrixChunks(const Eigen::Ref<const Eigen::MatrixXd>& G, Index k);
  // With `cache`, when all m products fit in 64 MiB they are kept in `buffer` as they are first produced,
  // and a later get() of the same matrices (TRUNCATEDMEAN's second pass) reads them back, not recomputes.
  MatrixChunks(const core::SampleMatrices& S, Index first, Index m, const Eigen::MatrixXd& Q, bool tangent,
               Eigen::MatrixXd& buffer, Eigen::MatrixXd& scratch, bool cache = false);
  Index size() const { return m_; }
  Index rows() const { return d_; }
  Index k() const { return k_; }
  // G_first..G_{first+count-1} side by side (d x count k), valid until the next call.
  View get(Index first, Index count);
  // Chunk length (in matrices) that keeps a streamed chunk small: chunk_length(d, k, m).
  Index chunk_size() const;

 private:
  Index d_ = 0, k_ = 0, m_ = 0;
  const double* stored_ = nullptr;
  Index stride_ = 0;
  const core::SampleMatrices* S_ = nullptr;
  Index first_ = 0;
  const Eigen::MatrixXd* Q_ = nullptr;
  bool tangent_ = false;
  Eigen::MatrixXd* buffer_ = nullptr;
  Eigen::MatrixXd* scratch_ = nullptr;  // apply_range_tangent's
  bool cache_ = false;
  Index cached_ = 0;  // with cache_: G_0..G_{cached_-1} are in buffer_
  void produce(Index first, Index count, Eigen::Ref<Eigen::MatrixXd> out);
};

// Checks the Oja-family input: samples present, 1 <= k <= d, n >= min_n; for private algorithms
// also eps finite > 0, delta in (0, 1) and replace-one neighbours (Definition 1). Throws
// dpb::InvalidArgument naming `owner` and what is allowed.
void check_input(const Input& in, const std::string& owner, bool is_private, Index min_n = 1);

// An oracle quantity from Input.oracle: throws dpb::InvalidArgument, saying which parameter to give
// instead, when the oracle is absent or does not know it.
const core::ModelInfo& require_oracle(const Input& in, const std::string& owner,
                                      const std::string& needed_for);
double oracle_sigma(const Input& in, const std::string& owner, const std::string& needed_for);
double oracle_gamma(const Input& in, const std::string& owner, const std::string& needed_for);

// The worst-case (eps, delta) claim under replace-one neighbours (Definition 1) with `conditions`, led by
// the calibration's condition (classical at eps' = eps or eps/2 needs eps' < 1).
PrivacyClaim replace_claim(const Privacy& privacy, GaussianCalibration calibration, bool at_half,
                           std::vector<std::string> conditions);

// The initial point Q_0 = QR(Q'_0), Q'_0 iid N(0, 1) d x k (Alg. 1 line 2, Alg. 2 line 1, Alg. 7 line 1).
Eigen::MatrixXd random_start(Index d, Index k, core::Rng& rng);

}  // namespace dpb::alg::dugler2026
