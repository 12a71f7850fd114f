#include "core/metrics.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::core {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// How far Q^T Q may be from I (entrywise) for Q to count as orthonormal. Frames that went through
// orthonormalize are at ~1e-15; 1e-8 accepts any honest frame and still rejects an unnormalised one,
// for which Q Q^T is no projector and the distance would be meaningless.
constexpr double kOrthonormalTolerance = 1e-8;

// The q of the Schatten norm `spec` names (op: inf, fro: 2).
double schatten_exponent(const NormSpec& spec) {
  switch (spec.norm) {
    case Norm::op:
      return kInf;
    case Norm::fro:
      return 2;
    case Norm::schatten:
      if (!(spec.q >= 1))
        throw InvalidArgument(fmt::format("Schatten norm: need q in [1, inf], got q={}", spec.q));
      return spec.q;
  }
  throw InvalidArgument("unknown Norm value");
}

// r^{1/q}, or 1 when the spec asks for no normalisation.
double rank_normalizer(const NormSpec& spec, Eigen::Index r) {
  return spec.normalize_by_rank ? std::pow(static_cast<double>(r), 1.0 / schatten_exponent(spec)) : 1.0;
}

// (sum_i s_i^q)^{1/q} of nonnegative s, scaled by max s_i first so that s_i^q neither overflows nor
// underflows to a wrong answer.
double vector_q_norm(const Eigen::VectorXd& s, double q) {
  const double top = s.size() ? s.maxCoeff() : 0.0;
  if (top == 0 || std::isinf(q)) return top;
  return top * std::pow((s / top).array().pow(q).sum(), 1.0 / q);
}

void require_orthonormal(const Eigen::MatrixXd& Q, const char* what) {
  const Eigen::Index k = Q.cols();
  const double err = (Q.transpose() * Q - Eigen::MatrixXd::Identity(k, k)).cwiseAbs().maxCoeff();
  if (!(err <= kOrthonormalTolerance))
    throw InvalidArgument(
        fmt::format("projector_distance: {} must have orthonormal columns "
                    "(max |Q^T Q - I| = {:.3g}, allowed {:g})",
                    what, err, kOrthonormalTolerance));
}

}  // namespace

double sin_angle(const Eigen::VectorXd& u, const Eigen::VectorXd& v) {
  if (u.size() != v.size())
    throw InvalidArgument(
        fmt::format("sin_angle: vectors must have equal length, got {} and {}", u.size(), v.size()));
  const Eigen::VectorXd a = safe_normalize(u), b = safe_normalize(v);
  // |a - <a,b> b| = sin: each entry carries only absolute rounding error, so small angles keep
  // their relative accuracy (unlike sqrt(1 - <a,b>^2)).
  return std::min(1.0, (a - a.dot(b) * b).norm());
}

double sin2_angle(const Eigen::VectorXd& u, const Eigen::VectorXd& v) {
  const double s = sin_angle(u, v);
  return s * s;
}

double schatten_norm(const Eigen::MatrixXd& M, double q) {
  if (!(q >= 1)) throw InvalidArgument(fmt::format("schatten_norm: need q in [1, inf], got q={}", q));
  require_finite(M, "schatten_norm input");
  if (M.size() == 0) return 0;
  const bool symmetric = M.rows() == M.cols() && M == M.transpose();
  Eigen::VectorXd s;
  if (symmetric)
    s = symmetric_eigenvalues(M).cwiseAbs();
  else
    s = Eigen::BDCSVD<Eigen::MatrixXd>(M).singularValues();
  return vector_q_norm(s, q);
}

double operator_norm(const Eigen::MatrixXd& M) { return schatten_norm(M, kInf); }

double matrix_norm(const Eigen::MatrixXd& M, const NormSpec& spec) {
  if (spec.norm == Norm::fro) {
    // O(d^2) instead of a decomposition; stableNorm cannot overflow.
    require_finite(M, "matrix_norm input");
    return M.stableNorm();
  }
  return schatten_norm(M, schatten_exponent(spec));
}

double projector_distance(const Eigen::MatrixXd& Q1, const Eigen::MatrixXd& Q2, const NormSpec& spec) {
  if (Q1.rows() != Q2.rows() || Q1.cols() != Q2.cols() || Q1.cols() < 1)
    throw InvalidArgument(
        fmt::format("projector_distance: frames must both be d x r with r >= 1, "
                    "got {} x {} and {} x {}",
                    Q1.rows(), Q1.cols(), Q2.rows(), Q2.cols()));
  require_finite(Q1, "projector_distance Q1");
  require_finite(Q2, "projector_distance Q2");
  require_orthonormal(Q1, "Q1");
  require_orthonormal(Q2, "Q2");
  const double q = schatten_exponent(spec);
  // sin(theta_i) = singular values of the part of Q1 orthogonal to span(Q2).
  const Eigen::MatrixXd residual = Q1 - Q2 * (Q2.transpose() * Q1);
  const Eigen::VectorXd sines = Eigen::BDCSVD<Eigen::MatrixXd>(residual).singularValues().cwiseMin(1.0);
  // Each sine is a singular value of Q1 Q1^T - Q2 Q2^T twice: ||.||_q = 2^{1/q} ||sines||_q.
  const double distance = std::pow(2.0, 1.0 / q) * vector_q_norm(sines, q);
  return distance / rank_normalizer(spec, Q1.cols());
}

double covariance_error(const Eigen::MatrixXd& S_hat, const Eigen::MatrixXd& S, const NormSpec& spec,
                        Eigen::Index rank) {
  if (S_hat.rows() != S_hat.cols() || S_hat.rows() != S.rows() || S_hat.cols() != S.cols())
    throw InvalidArgument(fmt::format("covariance_error: need two d x d matrices, got {} x {} and {} x {}",
                                      S_hat.rows(), S_hat.cols(), S.rows(), S.cols()));
  if (spec.normalize_by_rank && rank < 1)
    throw InvalidArgument(
        fmt::format("covariance_error: normalize_by_rank needs the rank r >= 1, got {}", rank));
  require_finite(S_hat, "covariance_error S_hat");
  require_finite(S, "covariance_error S");
  return matrix_norm(S_hat - S, spec) / rank_normalizer(spec, rank);
}

}  // namespace dpb::core
