#include "algorithms/pca/dugler2026_common.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <vector>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg::dugler2026 {

void orthonormalize_in_place(Eigen::Ref<Eigen::MatrixXd> Y) {
  for (Index j = 0; j < Y.cols(); ++j) {
    const double before = Y.col(j).norm();
    for (int pass = 0; pass < 2; ++pass)  // CGS2: the second pass restores orthogonality to rounding
      for (Index i = 0; i < j; ++i) Y.col(j) -= Y.col(i).dot(Y.col(j)) * Y.col(i);
    const double norm = Y.col(j).norm();
    // A column left with a residual at rounding level of its own norm lies in the span of the previous
    // ones: rank-deficient (normalising the rounding would return an arbitrary direction).
    if (!(norm > 1e-12 * before && std::isfinite(norm)))
      throw InvalidArgument(
          "dugler2026: QR of a rank-deficient or non-finite update (check the learning rate)");
    Y.col(j) /= norm;
  }
}

void project_onto_SQ(const Eigen::MatrixXd& Q, Eigen::Ref<Eigen::MatrixXd> Y, Eigen::MatrixXd& kk) {
  const Index k = Q.cols();
  kk.resize(k, k);
  kk.noalias() = Q.transpose() * Y;
  for (Index j = 0; j < k; ++j) {  // kk <- skew(Q^T Y)
    kk(j, j) = 0;
    for (Index i = 0; i < j; ++i) {
      const double s = 0.5 * (kk(i, j) - kk(j, i));
      kk(i, j) = s;
      kk(j, i) = -s;
    }
  }
  Y.noalias() -= Q * kk;
}

void project_onto_tangent(const Eigen::MatrixXd& Q, Eigen::Ref<Eigen::MatrixXd> Y, Eigen::MatrixXd& kk) {
  kk.resize(Q.cols(), Y.cols());
  kk.noalias() = Q.transpose() * Y;
  Y.noalias() -= Q * kk;
}

void NoiseWorkspace::resize(Index d, Index k) {
  Z.resize(d, k);
  kk.resize(k, k);
}

void add_tangent_noise(const Eigen::MatrixXd& Q, const LedgerEntry& entry, Ledger& ledger, core::Rng& rng,
                       NoiseWorkspace& ws, Eigen::Ref<Eigen::MatrixXd> out) {
  // Z is drawn into a zero matrix so that only its T_Q part, Pi Z, reaches `out` (Alg. 1 line 6,
  // Alg. 2 line 8). The mechanism's own probe call sees that zero matrix; a sensitivity probe is shown the
  // statistic `out` and its release here as well, and may replace the release.
  LedgerProbe* probe = active_probe();
  const Eigen::MatrixXd statistic = probe ? Eigen::MatrixXd(out) : Eigen::MatrixXd();
  if (ws.Z.rows() != out.rows() || ws.Z.cols() != out.cols())
    ws.resize(out.rows(), out.cols());  // once per run
  ws.Z.setZero();
  gaussian_mechanism(ws.Z, entry, ledger, rng);
  project_onto_tangent(Q, ws.Z, ws.kk);
  out += ws.Z;
  if (!probe) return;
  std::vector<double> release(out.size());
  Eigen::Map<Eigen::MatrixXd>(release.data(), out.rows(), out.cols()) = out;
  probe->observe(entry, std::vector<double>(statistic.data(), statistic.data() + statistic.size()), {}, release,
                 ProbedRelease::projected);
  out = Eigen::Map<const Eigen::MatrixXd>(release.data(), out.rows(), out.cols());
}

void add_symmetric_noise(const Eigen::MatrixXd& Q, const LedgerEntry& entry, Ledger& ledger, core::Rng& rng,
                         NoiseWorkspace& ws, Eigen::Ref<Eigen::MatrixXd> out) {
  add_tangent_noise(Q, entry, ledger, rng, ws, out);
  // GOE_k(sigma^2): a k x k draw per step (k is small; steps are few), not per sample. It is part of the
  // release `entry` records: GOE_k(sigma^2/2) of it makes the noise isotropic on S_Q with Pi Z (Lemma 9),
  // the rest is post-processing for utility (Lemma 1), so it is not a second entry.
  const double sigma = entry.noise_scale;
  out.noalias() += Q * core::goe(rng, Q.cols(), sigma * sigma);
}

SampleRange::SampleRange(const core::SampleMatrices& base, Index first, Index count)
    : base_(base), first_(first), count_(count) {
  if (first < 0 || count < 0 || first + count > base.n())
    throw InvalidArgument(
        fmt::format("SampleRange [{}, {}) outside [0, {})", first, first + count, base.n()));
}

void SampleRange::apply_range(Index first, Index count, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                              Eigen::Ref<Eigen::MatrixXd> out) const {
  if (first < 0 || count < 0 || first + count > count_)
    throw InvalidArgument(
        fmt::format("SampleRange: samples [{}, {}) outside [0, {})", first, first + count, count_));
  base_.apply_range(first_ + first, count, Q, out);
}

MatrixChunks::MatrixChunks(const Eigen::Ref<const Eigen::MatrixXd>& G, Index k)
    : d_(G.rows()), k_(k), stored_(G.data()), stride_(G.outerStride()) {
  if (k < 1 || G.cols() % k != 0) throw InvalidArgument("MatrixChunks: G must hold blocks of k columns");
  m_ = G.cols() / k;
}

MatrixChunks::MatrixChunks(const core::SampleMatrices& S, Index first, Index m, const Eigen::MatrixXd& Q,
                           bool tangent, Eigen::MatrixXd& buffer, Eigen::MatrixXd& scratch, bool cache)
    : d_(S.d()),
      k_(Q.cols()),
      m_(m),
      S_(&S),
      first_(first),
      Q_(&Q),
      tangent_(tangent),
      buffer_(&buffer),
      scratch_(&scratch),
      cache_(cache && m > 0 && d_ * k_ * m <= (Index{64} << 20) / Index{sizeof(double)}) {
  if (first < 0 || m < 0 || first + m > S.n() || Q.rows() != S.d())
    throw InvalidArgument(fmt::format("MatrixChunks: samples [{}, {}) outside [0, {}) or Q not {} x k", first,
                                      first + m, S.n(), S.d()));
}

MatrixChunks::View MatrixChunks::get(Index first, Index count) {
  if (first < 0 || count < 0 || first + count > m_)
    throw InvalidArgument(fmt::format("MatrixChunks: [{}, {}) outside [0, {})", first, first + count, m_));
  if (stored_) return View(stored_ + first * k_ * stride_, d_, count * k_, Eigen::OuterStride<>(stride_));
  if (cache_) {
    // Column block l of buffer_ holds G_l; the first read produces them all, later reads view the buffer.
    if (buffer_->rows() != d_ || buffer_->cols() < m_ * k_) buffer_->resize(d_, m_ * k_);
    const Index end = first + count;
    if (first <= cached_ && end > cached_) {  // produce all the rest at once: a few large products
      produce(cached_, m_ - cached_, buffer_->middleCols(cached_ * k_, (m_ - cached_) * k_));
      cached_ = m_;
    } else if (first > cached_) {  // a read past the cached prefix: computed in place, not kept
      produce(first, count, buffer_->middleCols(first * k_, count * k_));
    }
    return View(buffer_->data() + first * k_ * d_, d_, count * k_, Eigen::OuterStride<>(d_));
  }
  if (buffer_->rows() != d_ || buffer_->cols() < count * k_) buffer_->resize(d_, count * k_);
  produce(first, count, buffer_->leftCols(count * k_));
  return View(buffer_->data(), d_, count * k_, Eigen::OuterStride<>(d_));
}

void MatrixChunks::produce(Index first, Index count, Eigen::Ref<Eigen::MatrixXd> out) {
  if (tangent_)
    S_->apply_range_tangent(first_ + first, count, *Q_, out, *scratch_);  // G_l = Pi A_l Q
  else
    S_->apply_range(first_ + first, count, *Q_, out);  // G_l = A_l Q
}

Index chunk_length(Index d, Index k, Index m) {
  return std::max<Index>(1, std::min<Index>(m, (Index{1} << 15) / std::max<Index>(1, d * k)));
}

Index MatrixChunks::chunk_size() const { return chunk_length(d_, k_, m_); }

void check_input(const Input& in, const std::string& owner, bool is_private, Index min_n) {
  if (!in.samples) throw InvalidArgument(owner + " needs sample matrices A_i (Input.samples)");
  const Index d = in.samples->d(), n = in.samples->n();
  if (in.k < 1 || in.k > d)
    throw InvalidArgument(fmt::format("{}: need 1 <= k <= d = {}, got k = {}", owner, d, in.k));
  if (n < min_n)
    throw InvalidArgument(fmt::format("{}: needs n >= {} sample matrices, got n = {}", owner, min_n, n));
  if (!is_private) return;
  validate(in.privacy);
  if (!(in.privacy.delta > 0))
    throw InvalidArgument(
        fmt::format("{}: needs delta in (0, 1) (approximate DP), got delta = {}", owner, in.privacy.delta));
  if (in.privacy.neighbours != Neighbours::replace)
    throw InvalidArgument(owner +
                          ": calibrated for replace-one neighbours (dugler2026 Definition 1) only; "
                          "set neighbours = replace");
}

const core::ModelInfo& require_oracle(const Input& in, const std::string& owner,
                                      const std::string& needed_for) {
  if (!in.oracle)
    throw InvalidArgument(
        fmt::format("{}: {} reads population quantities from the oracle, but none was given "
                    "(give the value explicitly: {})",
                    owner, needed_for, needed_for));
  return *in.oracle;
}

double oracle_sigma(const Input& in, const std::string& owner, const std::string& needed_for) {
  const auto& o = require_oracle(in, owner, needed_for);
  if (auto it = o.params.find("sigma"); it != o.params.end()) return it->second;
  if (auto it = o.params.find("sigma2"); it != o.params.end()) return std::sqrt(it->second);
  throw InvalidArgument(fmt::format("{}: the oracle of model '{}' has no noise level sigma; give {}", owner,
                                    o.model, needed_for));
}

double oracle_gamma(const Input& in, const std::string& owner, const std::string& needed_for) {
  const auto& o = require_oracle(in, owner, needed_for);
  if (!o.gamma2)
    throw InvalidArgument(fmt::format("{}: the oracle of model '{}' has no gamma^2 (Assumption A.4); give {}",
                                      owner, o.model, needed_for));
  return std::sqrt(*o.gamma2);
}

PrivacyClaim replace_claim(const Privacy& privacy, GaussianCalibration calibration, bool at_half,
                           std::vector<std::string> conditions) {
  PrivacyClaim c;
  c.epsilon = privacy.epsilon;
  c.delta = privacy.delta;
  c.neighbours = Neighbours::replace;
  c.scope = ClaimScope::worst_case;
  c.conditions.push_back(
      calibration == GaussianCalibration::analytic ? "analytic Gaussian calibration (Balle & Wang 2018)"
      : at_half ? "eps/2 < 1 for the classical Gaussian at (eps/2, delta/2) (the paper states eps <= 1)"
                : "0 < eps < 1 (classical Gaussian calibration, Theorem 4)");
  for (auto& s : conditions) c.conditions.push_back(std::move(s));
  return c;
}

Eigen::MatrixXd random_start(Index d, Index k, core::Rng& rng) { return core::haar_frame(rng, d, k); }

}  // namespace dpb::alg::dugler2026
