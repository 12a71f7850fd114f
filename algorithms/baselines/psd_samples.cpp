#include "algorithms/baselines/psd_samples.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg::baselines {

PsdSamples PsdSamples::from(const Input& in, const std::string& owner) {
  PsdSamples s;
  if (in.X) {
    s.X_ = in.X;
  } else if (const auto* v = dynamic_cast<const core::VectorSamples*>(in.samples)) {
    s.X_ = &v->vectors();
  } else if (const auto* sh = dynamic_cast<const core::ShiftedVectorSamples*>(in.samples)) {
    s.X_ = &sh->vectors();
    s.shift_ = sh->shift();
    s.shift_diagonal_ = s.shift_.diagonal();
    s.shift_trace_ = s.shift_diagonal_.sum();
  } else {
    throw InvalidArgument(fmt::format(
        "{}: needs vector data (Input::X, d x n, samples as columns) or sample matrices of the form x x^T "
        "(VectorSamples) or C + x x^T (ShiftedVectorSamples)",
        owner));
  }
  if (s.n() < 1 || s.d() < 2)
    throw InvalidArgument(
        fmt::format("{}: needs n >= 1 samples of dimension d >= 2, got n = {}, d = {}", owner, s.n(), s.d()));
  if (!s.X_->allFinite())
    throw InvalidArgument(
        fmt::format("{}: the data contain NaN or infinite values; all entries must be finite", owner));
  return s;
}

double PsdSamples::trace(Eigen::Index i) const { return shift_trace_ + X_->col(i).squaredNorm(); }

double PsdSamples::sum_sqrt_diagonal(Eigen::Index i) const {
  if (!shifted()) return X_->col(i).lpNorm<1>();
  double s = 0;
  for (Eigen::Index j = 0; j < d(); ++j) s += std::sqrt(shift_diagonal_[j] + (*X_)(j, i) * (*X_)(j, i));
  return s;
}

Eigen::MatrixXd PsdSamples::weighted_sum(const Eigen::VectorXd& c) const {
  // X diag(c) X^T = n * second_moment(X diag(sqrt c)): one d x n scaled copy, then a rank update.
  const Eigen::MatrixXd Y = (*X_) * c.cwiseSqrt().asDiagonal();
  Eigen::MatrixXd S = static_cast<double>(n()) * core::second_moment(Y);
  if (shifted()) S += c.sum() * shift_;
  return S;
}

}  // namespace dpb::alg::baselines
