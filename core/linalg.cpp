#include "core/linalg.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <vector>

#include <Spectra/SymEigsSolver.h>

#include "core/eigen_order.hpp"
#include "core/errors.hpp"
#include "core/gram_products.hpp"

namespace dpb::core {

Eigen::MatrixXd orthonormalize(const Eigen::MatrixXd& Y) {
  const Eigen::Index d = Y.rows(), k = Y.cols();
  if (k < 1 || k > d) throw InvalidArgument(fmt::format("orthonormalize: need 1 <= k <= d, got d={}, k={}", d, k));
  require_finite(Y, "orthonormalize input");
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(Y);
  Eigen::MatrixXd Q = qr.householderQ() * Eigen::MatrixXd::Identity(d, k);
  const auto& R = qr.matrixQR();
  for (Eigen::Index j = 0; j < k; ++j)
    if (R(j, j) < 0) Q.col(j) *= -1.0;
  return Q;
}

namespace {

// From this dimension on, the top k in algebraic order come from a restarted Lanczos solver (Spectra)
// that never computes the rest of the spectrum: on noisy covariances it is ~25x faster than Eigen's full
// self-adjoint solver at d = 200 and ~50x at d = 500 (bench/README.md), with the same eigenvalues up to
// rounding. Below it the full solver is cheap and exactly what earlier results were computed with.
constexpr Eigen::Index kLanczosMinDimension = 200;
constexpr double kLanczosTolerance = 1e-12;  // relative, on the Ritz values
constexpr Eigen::Index kLanczosMaxRestarts = 1000;

// Spectra's operation y = S x, S read from its lower triangle as the full solver reads it: the bits of
// Spectra's DenseSymMatProd (Eigen's symmetric product), with its column pairs run side by side.
class LowerSymmetricProduct {
 public:
  using Scalar = double;
  explicit LowerSymmetricProduct(const Eigen::MatrixXd& S) : S_(S) {}
  Eigen::Index rows() const { return S_.rows(); }
  Eigen::Index cols() const { return S_.cols(); }
  void perform_op(const double* x, double* y) const {
    symmetric_product_as_eigen(S_.data(), S_.rows(), S_.outerStride(), x, y);
  }

 private:
  const Eigen::MatrixXd& S_;
};

// None when the Krylov space would not be small against d, or when Lanczos does not converge (the full
// solver then answers).
std::optional<EigenPairs> lanczos_top(const Eigen::MatrixXd& S, Eigen::Index k) {
  const Eigen::Index d = S.rows(), ncv = std::min(d, std::max<Eigen::Index>(2 * k + 1, 20));
  if (d < kLanczosMinDimension || 2 * ncv > d) return std::nullopt;
  LowerSymmetricProduct product(S);
  Spectra::SymEigsSolver<LowerSymmetricProduct> solver(product, k, ncv);
  solver.init();  // a fixed start vector: deterministic
  solver.compute(Spectra::SortRule::LargestAlge, kLanczosMaxRestarts, kLanczosTolerance);
  if (solver.info() != Spectra::CompInfo::Successful) return std::nullopt;
  return EigenPairs{solver.eigenvalues(), solver.eigenvectors()};
}

// Signs each column so that its largest-magnitude entry is positive.
void fix_signs(Eigen::MatrixXd& vectors) {
  for (Eigen::Index j = 0; j < vectors.cols(); ++j) {
    Eigen::Index imax;
    vectors.col(j).cwiseAbs().maxCoeff(&imax);
    if (vectors(imax, j) < 0) vectors.col(j) *= -1.0;
  }
}

}  // namespace

Eigen::VectorXd symmetric_eigenvalues(const Eigen::MatrixXd& S) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S, Eigen::EigenvaluesOnly).eigenvalues();
}

EigenPairs symmetric_eigenpairs(const Eigen::MatrixXd& S) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(S);
  return {solver.eigenvalues(), solver.eigenvectors()};
}

namespace {

// The largest eigenvalue of the symmetric tridiagonal matrix (diagonal a, off-diagonal e), by Sturm
// bisection to rounding level. Each Sturm count is a chain of n dependent divisions, so the three bisection
// steps ahead are counted at once: the 7 midpoints they could take, 7 independent chains side by side
// (2.1-2.3x faster at n = 50-200). The steps then taken are the sequential bisection's, midpoint for
// midpoint: the same result, bit for bit.
double largest_tridiagonal_eigenvalue(const Eigen::Ref<const Eigen::VectorXd>& a,
                                      const Eigen::Ref<const Eigen::VectorXd>& e,
                                      const EigenvalueDecided& decided = {}) {
  const Eigen::Index n = a.size();
  double lo = a(0), hi = a(0);
  for (Eigen::Index i = 0; i < n; ++i) {  // Gershgorin interval
    const double r = (i > 0 ? std::abs(e(i - 1)) : 0.0) + (i + 1 < n ? std::abs(e(i)) : 0.0);
    lo = std::min(lo, a(i) - r);
    hi = std::max(hi, a(i) + r);
  }
  const double scale = std::max(std::abs(lo), std::abs(hi));
  if (scale == 0) return 0;
  const double pivmin = std::numeric_limits<double>::min() * std::max(1.0, scale * scale);
  const double tolerance = 4 * std::numeric_limits<double>::epsilon() * scale;
  constexpr int levels = 3, lanes = 1 << levels;  // 7 midpoints and a spare lane
  int steps = 0;
  while (steps < 200 && hi - lo > tolerance && !(decided && decided(lo, hi))) {
    // Midpoint k of the tree (children 2k + 1 below it, 2k + 2 above), as a bisection step computes it.
    std::array<double, lanes> x{}, left{}, right{};
    left[0] = lo;
    right[0] = hi;
    for (int k = 0; k < lanes - 1; ++k) {
      x[k] = left[k] + 0.5 * (right[k] - left[k]);
      if (2 * k + 2 < lanes - 1) {
        left[2 * k + 1] = left[k], right[2 * k + 1] = x[k];
        left[2 * k + 2] = x[k], right[2 * k + 2] = right[k];
      }
    }
    x[lanes - 1] = x[0];
    // below[k]: eigenvalues < x[k] (Sturm count of the LDL^T pivots).
    std::array<double, lanes> q{};
    std::array<Eigen::Index, lanes> below{};
    for (int k = 0; k < lanes; ++k) {
      q[k] = a(0) - x[k] - 0.0;
      if (std::abs(q[k]) < pivmin) q[k] = -pivmin;
      below[k] = q[k] < 0;
    }
    for (Eigen::Index i = 1; i < n; ++i) {
      const double ai = a(i), e2 = e(i - 1) * e(i - 1);
      for (int k = 0; k < lanes; ++k) {
        const double t = ai - x[k] - e2 / q[k];
        q[k] = std::abs(t) < pivmin ? -pivmin : t;
        below[k] += q[k] < 0;
      }
    }
    for (int level = 0, k = 0; level < levels && steps < 200 && hi - lo > tolerance; ++level, ++steps) {
      if (below[k] == n) {
        hi = x[k];
        k = 2 * k + 1;
      } else {
        lo = x[k];
        k = 2 * k + 2;
      }
    }
  }
  return hi;
}

}  // namespace

double largest_eigenvalue(const Eigen::MatrixXd& S, LargestEigenvalueWorkspace& ws,
                          const EigenvalueDecided& decided) {
  if (S.rows() < 1 || S.cols() != S.rows())
    throw InvalidArgument("largest_eigenvalue: needs a square matrix");
  if (S.rows() == 1) return S(0, 0);
  ws.tridiagonal_form = S;
  tridiagonalize_as_eigen(ws.tridiagonal_form, ws.householder);  // reads the lower triangle
  ws.diagonal = ws.tridiagonal_form.diagonal();
  ws.subdiagonal = ws.tridiagonal_form.diagonal<-1>();
  return largest_tridiagonal_eigenvalue(ws.diagonal, ws.subdiagonal, decided);
}

namespace {

constexpr Eigen::Index kLanczosMinBudget = 24;  // steps; see largest_gram_eigenvalue

// The smaller of D's Gram matrices: D^T D (b x b) where b <= d, else D D^T.
gram_products::GramOf smaller_side(const Eigen::Ref<const Eigen::MatrixXd>& D) {
  return D.cols() <= D.rows() ? gram_products::GramOf::columns : gram_products::GramOf::rows;
}

// Lanczos on the Gram matrix of D on its smaller side (g = min(d, b)), applied through D in one or two passes
// (gram_products::apply_gram), with full reorthogonalisation (twice is enough), from a fixed start (no draw:
// the result is a function of D alone). Its Ritz value rises to lambda_max; it stops when one step raises it
// by at most 4 ulps. None if `budget` (< g) steps do not get there, or if the Krylov space stops growing: an
// invariant subspace holds exact eigenvalues, but not necessarily the largest (the Gram route decides).
std::optional<double> lanczos_gram_eigenvalue(const Eigen::Ref<const Eigen::MatrixXd>& D, Eigen::Index budget,
                                              LargestEigenvalueWorkspace& ws) {
  const auto side = smaller_side(D);
  // The operator D^T D on R^b, else D D^T on R^d.
  const bool columns = side == gram_products::GramOf::columns;
  const Eigen::Index g = columns ? D.cols() : D.rows();
  ws.basis.resize(g, budget);
  ws.image.resize(columns ? D.rows() : D.cols());
  ws.next.resize(g);
  ws.alpha.resize(budget);
  ws.beta.resize(budget);
  ws.coefficients.resize(budget);
  auto start = ws.basis.col(0);
  for (Eigen::Index i = 0; i < g; ++i) start(i) = 1.0 + static_cast<double>((i * 7919) % 1009) / 1009.0;
  start.normalize();
  constexpr double eps = std::numeric_limits<double>::epsilon();
  double previous = 0, previous_rise = 0;
  for (Eigen::Index j = 0; j < budget; ++j) {
    ws.lanczos_steps = j + 1;
    gram_products::apply_gram(D, side, ws.basis.col(j).data(), ws.image.data(), ws.next.data());
    ws.alpha(j) = ws.basis.col(j).dot(ws.next);
    const auto V = ws.basis.leftCols(j + 1);
    for (int pass = 0; pass < 2; ++pass) {
      auto c = ws.coefficients.head(j + 1);
      c.noalias() = V.transpose() * ws.next;
      ws.next.noalias() -= V * c;
    }
    ws.beta(j) = ws.next.norm();
    const double ritz = largest_tridiagonal_eigenvalue(ws.alpha.head(j + 1), ws.beta.head(j));
    const double rise = (ritz - previous) / ritz;
    if (ws.beta(j) <= 4 * eps * std::abs(ritz)) return std::nullopt;
    if (j >= 2 && rise <= 4 * eps) return ritz;
    // The Ritz value converges about geometrically, faster as it goes: where the rate of the last two rises
    // says it needs over twice the budget, stop now rather than at the budget.
    if (j >= 6 && rise < previous_rise) {
      const double steps_needed =
          static_cast<double>(j) + std::log(4 * eps / rise) / std::log(rise / previous_rise);
      if (steps_needed > 2 * static_cast<double>(budget)) return std::nullopt;
    }
    previous = ritz;
    previous_rise = rise;
    if (j + 1 < budget) ws.basis.col(j + 1) = ws.next / ws.beta(j);
  }
  return std::nullopt;
}

}  // namespace

double largest_gram_eigenvalue(const Eigen::Ref<const Eigen::MatrixXd>& D, LargestEigenvalueWorkspace& ws,
                               const EigenvalueDecided& decided) {
  const Eigen::Index m = std::min(D.rows(), D.cols());
  const double g = static_cast<double>(m), h = static_cast<double>(std::max(D.rows(), D.cols()));
  // Lanczos steps cost 4 d b flops each; the Gram route g (g + 1) h for the matrix and 4/3 g^3 for its
  // tridiagonalisation. Matrix-vector products (Lanczos, tridiagonalisation) run at about half the speed of
  // the Gram's matrix product (gram_products' kernels with AVX2: 15 against 29 GFLOP/s at d = 200, b = 1351,
  // and the Gram route takes 25-29 steps' time there), so their flops count twice: Lanczos gets as many steps
  // as the Gram route takes time. On the bench's spiked blocks it needs 9-14 steps (liu2022 Alg. 4's subsets)
  // to 12-29 (PRIVRANGE's blocks of the shifted model), so it is tried only where the budget holds 24: below
  // that a block that does not converge costs more than those that do save.
  if (m > kLanczosMinBudget) {  // the budget is below m
    const auto budget =
        std::min(m - 1, static_cast<Eigen::Index>((g * (g + 1) * h + 8.0 / 3.0 * g * g * g) / (8 * g * h)));
    if (budget >= kLanczosMinBudget)
      if (const auto top = lanczos_gram_eigenvalue(D, budget, ws)) return *top;
  }
  ws.lanczos_steps = 0;
  gram_products::gram(D, smaller_side(D), ws.gram, ws.gram_scratch);
  return largest_eigenvalue(ws.gram, ws, decided);
}

Eigen::VectorXd descending_eigenvalues(const Eigen::MatrixXd& S) {
  require_finite(S, "descending_eigenvalues");
  return symmetric_eigenvalues(S).reverse();
}

EigenPairs top_eigenpairs(const Eigen::MatrixXd& S, Eigen::Index k, EigenOrder order) {
  const Eigen::Index d = S.rows();
  if (S.cols() != d) throw InvalidArgument("top_eigenpairs: matrix must be square");
  if (k < 1 || k > d) throw InvalidArgument(fmt::format("top_eigenpairs: need 1 <= k <= d, got d={}, k={}", d, k));
  require_finite(S, "top_eigenpairs input");
  if (order == EigenOrder::algebraic)
    if (auto top = lanczos_top(S, k)) {
      fix_signs(top->vectors);
      return *std::move(top);
    }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(S);
  const Eigen::VectorXd& all = solver.eigenvalues();  // ascending
  // Algebraic order is the solver's order reversed. The absolute order is a stable sort of that, so
  // that a tie |lambda| = |-lambda| puts the positive eigenvalue first.
  std::vector<Eigen::Index> idx(d);
  std::iota(idx.rbegin(), idx.rend(), Eigen::Index{0});
  if (order == EigenOrder::absolute)
    std::stable_sort(idx.begin(), idx.end(), [&](Eigen::Index a, Eigen::Index b) {
      return std::abs(all[a]) > std::abs(all[b]);
    });
  EigenPairs out{Eigen::VectorXd(k), Eigen::MatrixXd(d, k)};
  for (Eigen::Index j = 0; j < k; ++j) {
    out.values[j] = all[idx[j]];
    out.vectors.col(j) = solver.eigenvectors().col(idx[j]);
  }
  fix_signs(out.vectors);
  return out;
}

Eigen::MatrixXd projector(const Eigen::MatrixXd& Q) { return Q * Q.transpose(); }

Eigen::MatrixXd second_moment(const Eigen::MatrixXd& X) {
  const Eigen::Index d = X.rows(), n = X.cols();
  if (n < 1) throw InvalidArgument("second_moment: need at least one sample (column)");
  require_finite(X, "second_moment input");
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(d, d);
  S.selfadjointView<Eigen::Lower>().rankUpdate(X, 1.0 / static_cast<double>(n));
  S.triangularView<Eigen::StrictlyUpper>() = S.transpose();
  return S;
}

Eigen::VectorXd safe_normalize(const Eigen::VectorXd& v) {
  require_finite(v, "vector to normalise");
  if (v.size() == 0) throw InvalidArgument("cannot normalise a zero vector");
  const double scale = v.cwiseAbs().maxCoeff();
  if (!(scale > 0)) throw InvalidArgument("cannot normalise a zero vector");
  const Eigen::VectorXd w = v / scale;
  return w / w.norm();
}

namespace {

// x - x is 0 for a finite x and NaN otherwise; eight running sums (not one chain, which the compiler
// may not reorder) vectorise, where Eigen's allFinite was a pass several times slower.
bool all_finite(const double* x, Eigen::Index size) {
  constexpr Eigen::Index kLanes = 8;
  std::array<double, kLanes> sums{};
  const Eigen::Index whole = size - size % kLanes;
  for (Eigen::Index i = 0; i < whole; i += kLanes)
    for (Eigen::Index l = 0; l < kLanes; ++l) sums[l] += x[i + l] - x[i + l];
  for (Eigen::Index i = whole; i < size; ++i) sums[0] += x[i] - x[i];
  double total = 0;
  for (const double s : sums) total += s;
  return !std::isnan(total);
}

}  // namespace

// Only NaN payloads can differ from Eigen's, and only for a NaN a beside a NaN x[i] (a referee's case); every
// caller's a is a finite step size or noise scale.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
void add_scaled(double* __restrict y, double a, const double* __restrict x, Eigen::Index n) noexcept {
  for (Eigen::Index i = 0; i < n; ++i) y[i] += a * x[i];  // never contracted: -ffp-contract=off
}

void require_finite(const Eigen::MatrixXd& M, const char* what) {
  if (!all_finite(M.data(), M.size()))
    throw InvalidArgument(fmt::format("{} contains NaN or infinite values; all entries must be finite", what));
}

}  // namespace dpb::core
