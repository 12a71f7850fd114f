#pragma once
// Linear-algebra helpers on Eigen shared by every layer.
#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <functional>
#include <vector>

namespace dpb::core {

// Orthonormal basis of the column space of Y (d x k, k <= d, full column rank) by Householder QR,
// with each column signed so that R has a nonnegative diagonal: the result is a deterministic
// function of Y (and Q R = Y exactly when Y has full rank).
Eigen::MatrixXd orthonormalize(const Eigen::MatrixXd& Y);

enum class EigenOrder {
  algebraic,  // largest eigenvalues first (lambda_1 >= lambda_2 >= ...): the PCA convention
  absolute,   // largest |lambda| first; between lambda and -lambda the positive one comes first
};

struct EigenPairs {
  Eigen::VectorXd values;   // in the order the function that fills it states
  Eigen::MatrixXd vectors;  // d x k, column j belongs to values[j]
};

// Top-k eigenpairs of a symmetric matrix S (only its lower triangle is read), in the requested order.
// Each eigenvector is signed so that its largest-magnitude entry is positive (deterministic output).
EigenPairs top_eigenpairs(const Eigen::MatrixXd& S, Eigen::Index k,
                          EigenOrder order = EigenOrder::algebraic);

// Every eigenvalue of a symmetric matrix S (only its lower triangle is read), ascending.
Eigen::VectorXd symmetric_eigenvalues(const Eigen::MatrixXd& S);

// Every eigenpair of a symmetric matrix S (only its lower triangle is read): values ascending, vectors as
// Eigen's solver signs them. These two are Eigen's SelfAdjointEigenSolver compiled once, here: instantiated
// in a file it costs about 4 s of its compile time.
EigenPairs symmetric_eigenpairs(const Eigen::MatrixXd& S);

// The largest eigenvalue of a symmetric matrix S (only its lower triangle is read): Householder
// tridiagonalisation (Eigen's, in its bits: core/eigen_order's tridiagonalize_as_eigen), then Sturm bisection
// on the tridiagonal form to rounding level (within a few ulps of the scale of what a full eigensolver gives;
// at d = 50 the full solver's QR sweeps for all the other eigenvalues cost about as much as the
// tridiagonalisation). Reuses `ws` across calls.
struct LargestEigenvalueWorkspace {
  Eigen::MatrixXd tridiagonal_form;  // S, then its tridiagonal form and reflectors
  Eigen::VectorXd householder, diagonal, subdiagonal;
  Eigen::MatrixXd gram;              // largest_gram_eigenvalue's Gram matrix, when it forms one
  std::vector<double> gram_scratch;  // and the copied columns and padded sums of its kernel
  // largest_gram_eigenvalue's Lanczos: its basis, coefficients and products, and the steps it took when it
  // gave the last call's value (0: the Gram route gave it).
  Eigen::MatrixXd basis;
  Eigen::VectorXd alpha, beta, image, next, coefficients;
  Eigen::Index lanczos_steps = 0;
};
// For a caller that needs only which of some intervals holds the largest eigenvalue: true once every value
// in [lo, hi] gives it the same answer. The bisection then stops early and returns hi, a value in [lo, hi]
// (where, had it gone on, its answer would have been).
using EigenvalueDecided = std::function<bool(double lo, double hi)>;
double largest_eigenvalue(const Eigen::MatrixXd& S, LargestEigenvalueWorkspace& ws,
                          const EigenvalueDecided& decided = {});

// lambda_max(D D^T) = lambda_max(D^T D) of a d x b matrix D: by Lanczos on the smaller side, applied through
// D (no Gram matrix), where it converges within the Gram route's time; else through the smaller Gram matrix
// and largest_eigenvalue. Both take their products with D from core/gram_products, which sums in one order on
// every CPU. Either is a deterministic function of D alone. Lanczos starts from a fixed vector:
// it agrees with the Gram route to rounding level unless D's top eigenvector is orthogonal to that vector (to
// rounding), which a block would have to be built for; it then gives a lower eigenvalue.
// `decided` stops the Gram route's bisection early (Lanczos runs to its own convergence).
double largest_gram_eigenvalue(const Eigen::Ref<const Eigen::MatrixXd>& D, LargestEigenvalueWorkspace& ws,
                               const EigenvalueDecided& decided = {});

// Every eigenvalue of a symmetric matrix S, descending (the PCA order). Throws dpb::InvalidArgument on NaN/Inf.
Eigen::VectorXd descending_eigenvalues(const Eigen::MatrixXd& S);

// Orthogonal projector Q Q^T onto the span of an orthonormal frame Q.
Eigen::MatrixXd projector(const Eigen::MatrixXd& Q);

// Sample second-moment matrix (1/n) X X^T of the columns of X (d x n), by a symmetric rank update
// (never forms x_i x_i^T). The result is fully symmetric. Throws dpb::InvalidArgument on NaN/Inf.
Eigen::MatrixXd second_moment(const Eigen::MatrixXd& X);

// v / ||v||, computed without overflow or underflow (scales by max |v_i| first). Throws
// dpb::InvalidArgument if v is zero or not finite.
Eigen::VectorXd safe_normalize(const Eigen::VectorXd& v);

// Throws dpb::InvalidArgument naming `what` if any entry of M is NaN or infinite.
void require_finite(const Eigen::MatrixXd& M, const char* what);

// y[i] += a x[i] for i < n: the bits of Eigen's `y += a * x` (a product, then a sum, each rounded), in the
// widest vectors the CPU has; Eigen, built for the baseline, uses two lanes. For per-step vector updates.
void add_scaled(double* y, double a, const double* x, Eigen::Index n) noexcept;

}  // namespace dpb::core
