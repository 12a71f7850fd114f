#pragma once
// Shared fixtures of the dugler2026 tests: a model instance with its sample matrices, the projector
// error, and the block variances of a noise matrix in the basis (Q, Q_perp).
#include <Eigen/Dense>
#include <algorithm>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/pca/dugler2026_learning_rates.hpp"
#include "algorithms/registry.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "core/rng.hpp"
#include "core/sample_matrices.hpp"
#include "core/samplers.hpp"

namespace dpb::test::dugler {

struct ModelData {
  std::unique_ptr<core::Model> model;
  std::unique_ptr<core::SampleMatrices> samples;
  alg::Input input(int k, double eps, double delta) const {
    alg::Input in;
    in.samples = samples.get();
    in.k = k;
    in.privacy = alg::Privacy{eps, delta, alg::Neighbours::replace};
    in.oracle = &model->info();
    return in;
  }
};

// dugler_shifted (spec §7 F.1): A_i = V_k Lambda V_k^T + z z^T, Lambda_j = gap (1 + (k - j)/k).
inline ModelData shifted(long d, long k, double sigma, long n, std::uint64_t seed, double gap = 1.0) {
  core::Rng rng(seed, 1);
  ModelData m;
  m.model = core::make_model(
      "dugler_shifted",
      core::ParamMap{
          {"d", static_cast<double>(d)}, {"k", static_cast<double>(k)}, {"sigma", sigma}, {"gap", gap}},
      rng);
  m.samples = m.model->sample_matrices(n, rng);
  return m;
}

// Fixed data for the noise tests, B = 2 * range half: in the range half, pair p is (a e_{p mod d}, 0), so
// with blocks of b pairs (b a multiple of d) every block maximum is the same number and PRIVRANGE's
// histogram has a single bin with all m counts (always released): Lhat is deterministic. The mean half
// holds N(0, I) vectors. A_i = x_i x_i^T.
inline core::VectorSamples structured_samples(long d, long B, double a, std::uint64_t seed) {
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(d, B);
  for (long p = 0; p < B / 4; ++p) X(p % d, 2 * p) = a;
  core::Rng rng(seed, 9);
  for (long i = B / 2; i < B; ++i)
    for (long j = 0; j < d; ++j) X(j, i) = core::standard_normal(rng);
  return core::VectorSamples(X);
}

// Params with a constant learning rate eta. With T ~ log n steps the private algorithms need each step to
// act like a power step: eta = 10 contracts by (1 + 10 lambda_{k+1})/(1 + 10 lambda_k) ~ 0.15-0.3 per step
// on dugler_shifted with gap 1. TADADPO needs eta <= c/lambda_1 (Lemma 18): eta = 0.5 there.
template <class Params>
Params constant_rate(double eta) {
  Params p;
  p.lr.family = alg::dugler2026::LearningRateFamily::constant;
  p.lr.eta = eta;
  return p;
}

// ||Q Q^T - V_k V_k^T||_F (the paper's error metric, spec §1).
inline double error(const Eigen::MatrixXd& Q, const core::ModelInfo& info) {
  return core::projector_distance(Q, info.target.leftCols(Q.cols()), core::NormSpec{core::Norm::fro});
}

// Running sums of squared noise entries in the basis [Q, Q_perp]: Q^T E (k x k: diagonal and
// off-diagonal) and Q_perp^T E ((d - k) x k), plus the largest asymmetry |(Q^T E)_ij - (Q^T E)_ji|.
struct BlockVariance {
  double diag = 0, off = 0, perp = 0, max_asym = 0;
  long n_diag = 0, n_off = 0, n_perp = 0;
  void add(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& Qperp, const Eigen::MatrixXd& E, double scale) {
    const Eigen::MatrixXd top = Q.transpose() * E / scale, bottom = Qperp.transpose() * E / scale;
    for (long i = 0; i < top.rows(); ++i)
      for (long j = 0; j < top.cols(); ++j) {
        if (i == j)
          diag += top(i, j) * top(i, j), ++n_diag;
        else
          off += top(i, j) * top(i, j), ++n_off;
        max_asym = std::max(max_asym, std::abs(top(i, j) - top(j, i)) * scale);
      }
    perp += bottom.squaredNorm();
    n_perp += bottom.size();
  }
  double var_diag() const { return diag / static_cast<double>(n_diag); }
  double var_off() const { return off / static_cast<double>(n_off); }
  double var_perp() const { return perp / static_cast<double>(n_perp); }
};

// Whether `spend` is within a replace-one claim of (eps, delta) (up to the accountant's rounding slack).
inline bool within(const alg::Spend& spend, double eps, double delta) {
  alg::PrivacyClaim claim;
  claim.epsilon = eps;
  claim.delta = delta;
  return alg::within_claim(spend, claim);
}

// The distinct disjoint batches (parts) a ledger's entries read.
inline std::size_t parts(const alg::Ledger& ledger) {
  std::set<std::int64_t> seen;
  for (const alg::LedgerEntry& e : ledger.entries()) seen.insert(e.part);
  return seen.size();
}

// What a run spent at delta by the accountant (replace-one): parallel over its half batches (Lemma 2).
inline alg::Spend spent(const alg::Ledger& ledger, double delta) {
  return alg::account(ledger, delta, alg::Neighbours::replace);
}

// An orthonormal basis of the complement of span(Q).
inline Eigen::MatrixXd complement(const Eigen::MatrixXd& Q) {
  const long d = Q.rows(), k = Q.cols();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(Q);
  const Eigen::MatrixXd full = qr.householderQ() * Eigen::MatrixXd::Identity(d, d);
  return full.rightCols(d - k);
}

}  // namespace dpb::test::dugler
