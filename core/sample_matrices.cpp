#include "core/sample_matrices.hpp"

#include <fmt/format.h>
#include <functional>

#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::core {
namespace {

// apply zeroes `out` before it reads Q, so apply(i, Q, Q) would silently return 0. The check is
// on memory ranges (conservative for interleaved row blocks); std::less orders any two pointers.
void check_no_overlap(const Eigen::Ref<const Eigen::MatrixXd>& Q, const Eigen::Ref<Eigen::MatrixXd>& out) {
  const auto end = [](const auto& M) -> const double* {
    return M.data() + (M.cols() - 1) * M.outerStride() + M.rows();
  };
  const std::less<const double*> before;
  if (Q.size() > 0 && out.size() > 0 && before(Q.data(), end(out)) && before(out.data(), end(Q)))
    throw InvalidArgument("apply: out must not overlap Q");
}

void check_apply_shapes(const SampleMatrices& s, Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                        const Eigen::Ref<Eigen::MatrixXd>& out) {
  if (i < 0 || i >= s.n())
    throw InvalidArgument(fmt::format("sample index {} out of range [0, {})", i, s.n()));
  if (Q.rows() != s.d() || out.rows() != s.d() || out.cols() != Q.cols())
    throw InvalidArgument(fmt::format("apply: Q and out must be {} x k with equal k, got {} x {} and {} x {}",
                                      s.d(), Q.rows(), Q.cols(), out.rows(), out.cols()));
  check_no_overlap(Q, out);
}

// out += x (x^T Q), column by column so nothing is allocated.
void add_rank_one_product(const Eigen::Ref<const Eigen::VectorXd>& x,
                          const Eigen::Ref<const Eigen::MatrixXd>& Q, Eigen::Ref<Eigen::MatrixXd> out) {
  for (Eigen::Index j = 0; j < Q.cols(); ++j) out.col(j) += x * x.dot(Q.col(j));
}

// out = C Q for C = W diag(w) W^T, accumulated term by term onto zero (what apply adds first).
void add_shift_product(const Eigen::MatrixXd& W, const Eigen::VectorXd& w,
                       const Eigen::Ref<const Eigen::MatrixXd>& Q, Eigen::Ref<Eigen::MatrixXd> out) {
  for (Eigen::Index l = 0; l < W.cols(); ++l)
    for (Eigen::Index j = 0; j < Q.cols(); ++j) out.col(j) += W.col(l) * (w[l] * W.col(l).dot(Q.col(j)));
}

void check_range_shapes(const SampleMatrices& s, Eigen::Index first, Eigen::Index count,
                        const Eigen::Ref<const Eigen::MatrixXd>& Q, const Eigen::Ref<Eigen::MatrixXd>& out) {
  if (first < 0 || count < 0 || first + count > s.n())
    throw InvalidArgument(
        fmt::format("apply_range: samples [{}, {}) outside [0, {})", first, first + count, s.n()));
  if (Q.rows() != s.d() || out.rows() != s.d() || out.cols() != count * Q.cols())
    throw InvalidArgument(
        fmt::format("apply_range: Q must be {} x k and out {} x {} k, got {} x {} and {} x {}", s.d(), s.d(),
                    count, Q.rows(), Q.cols(), out.rows(), out.cols()));
  check_no_overlap(Q, out);
}

}  // namespace

void SampleMatrices::apply_range(Eigen::Index first, Eigen::Index count,
                                 const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                 Eigen::Ref<Eigen::MatrixXd> out) const {
  check_range_shapes(*this, first, count, Q, out);
  const Eigen::Index k = Q.cols();
  for (Eigen::Index l = 0; l < count; ++l) apply(first + l, Q, out.middleCols(l * k, k));
}

VectorSamples::VectorSamples(Eigen::MatrixXd X) : X_(std::move(X)) { require_finite(X_, "sample vectors"); }

void VectorSamples::apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                          Eigen::Ref<Eigen::MatrixXd> out) const {
  check_apply_shapes(*this, i, Q, out);
  out.setZero();
  add_rank_one_product(X_.col(i), Q, out);
}

ShiftedVectorSamples::ShiftedVectorSamples(Eigen::MatrixXd W, Eigen::VectorXd w, Eigen::MatrixXd X)
    : W_(std::move(W)), w_(std::move(w)), X_(std::move(X)) {
  if (W_.rows() != X_.rows() || W_.cols() != w_.size())
    throw InvalidArgument("ShiftedVectorSamples: W must be d x r and w of length r");
  require_finite(W_, "shift factor W");
  require_finite(w_, "shift weights w");
  if (w_.size() > 0 && w_.minCoeff() < 0)
    throw InvalidArgument("ShiftedVectorSamples: shift weights w must be >= 0 (C = W diag(w) W^T is PSD)");
  require_finite(X_, "sample vectors");
}

void ShiftedVectorSamples::apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                 Eigen::Ref<Eigen::MatrixXd> out) const {
  check_apply_shapes(*this, i, Q, out);
  out.setZero();
  add_shift_product(W_, w_, Q, out);
  add_rank_one_product(X_.col(i), Q, out);
}

void ShiftedVectorSamples::apply_range(Eigen::Index first, Eigen::Index count,
                                       const Eigen::Ref<const Eigen::MatrixXd>& Q,
                                       Eigen::Ref<Eigen::MatrixXd> out) const {
  check_range_shapes(*this, first, count, Q, out);
  if (count == 0) return;
  const Eigen::Index k = Q.cols();
  auto CQ = out.leftCols(k);  // the first sample's block holds C Q until it is finished
  CQ.setZero();
  add_shift_product(W_, w_, Q, CQ);
  for (Eigen::Index l = count - 1; l >= 0; --l) {
    auto block = out.middleCols(l * k, k);
    if (l > 0) block = CQ;
    add_rank_one_product(X_.col(first + l), Q, block);
  }
}

Eigen::MatrixXd ShiftedVectorSamples::shift() const { return W_ * w_.asDiagonal() * W_.transpose(); }

}  // namespace dpb::core
