#pragma once
// Loss metrics the papers state their bounds in (DESIGN.md §4 `Loss`): the sin of the angle between
// two vectors (kumar2025 Eq. 2), the projector distance ||Q1 Q1^T - Q2 Q2^T|| between subspaces and
// the covariance error ||Sigma_hat - Sigma||, in operator, Frobenius or Schatten-q norm, optionally
// normalised by r^{1/q} as cai2024 §1.4 states its bounds.
#include <Eigen/Dense>

namespace dpb::core {

// sin of the angle between the lines spanned by u and v (same length, both nonzero, finite). Sign-
// and scale-invariant: sin(u, v) = sin(-3u, v). Computed as the norm of the component of u/|u|
// orthogonal to v/|v|, not as sqrt(1 - cos^2): for nearly parallel vectors the latter cancels
// catastrophically (an angle of 1e-9 comes out as 0 or ~1e-8), the former is accurate to a few
// ulps of 1 in absolute terms. Result in [0, 1]. Throws dpb::InvalidArgument on a size mismatch,
// a zero or a non-finite vector.
double sin_angle(const Eigen::VectorXd& u, const Eigen::VectorXd& v);

// sin^2 angle(u, v) = 1 - <u,v>^2 / (|u|^2 |v|^2) (kumar2025 Eq. 2), computed as sin_angle(u, v)^2.
double sin2_angle(const Eigen::VectorXd& u, const Eigen::VectorXd& v);

enum class Norm {
  op,        // operator (spectral) norm, Schatten-infinity
  fro,       // Frobenius norm, Schatten-2
  schatten,  // Schatten-q norm (sum_i sigma_i^q)^{1/q}, q in [1, inf]
};

// Which norm a loss is measured in. `q` is read only when norm == Norm::schatten (q = infinity is
// the operator norm). With normalize_by_rank the value is divided by r^{1/q} (op: q = inf, so 1;
// fro: sqrt(r)), the normalisation cai2024 states its bounds in.
struct NormSpec {
  Norm norm = Norm::fro;
  double q = 2;
  bool normalize_by_rank = false;
};

// Schatten-q norm (sum_i sigma_i^q)^{1/q} of any matrix M, q in [1, inf] (q = inf: largest singular
// value). An exactly symmetric M is done through its eigenvalues (sigma_i = |lambda_i|), anything
// else through its singular values. Overflow-safe. Throws dpb::InvalidArgument for q < 1 or NaN,
// or non-finite M.
double schatten_norm(const Eigen::MatrixXd& M, double q);

// Operator (spectral) norm: schatten_norm(M, infinity).
double operator_norm(const Eigen::MatrixXd& M);

// ||M|| in the norm `spec` names, without rank normalisation.
double matrix_norm(const Eigen::MatrixXd& M, const NormSpec& spec);

// ||Q1 Q1^T - Q2 Q2^T|| for two d x r frames with orthonormal columns, divided by r^{1/q} if
// spec.normalize_by_rank. Computed in O(d r^2) from the principal angles theta_i between the spans,
// without forming d x d projectors: the singular values of Q1 Q1^T - Q2 Q2^T are sin(theta_i), each
// twice, and sin(theta_i) are the singular values of (I - Q2 Q2^T) Q1 (accurate for small angles).
// Throws dpb::InvalidArgument if the shapes differ, an entry is not finite, or a frame is not
// orthonormal (|Q^T Q - I| > 1e-8 entrywise).
double projector_distance(const Eigen::MatrixXd& Q1, const Eigen::MatrixXd& Q2, const NormSpec& spec);

// ||S_hat - S|| for two d x d matrices, divided by rank^{1/q} if spec.normalize_by_rank (rank >= 1 is
// then required; it is the r of the model, e.g. cai2024's spike rank). Throws dpb::InvalidArgument
// on shape mismatch, non-square or non-finite input, or a missing rank.
double covariance_error(const Eigen::MatrixXd& S_hat, const Eigen::MatrixXd& S, const NormSpec& spec,
                        Eigen::Index rank = 0);

}  // namespace dpb::core
