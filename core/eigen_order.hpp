#pragma once
// Eigen 3.4's summation orders, written out. At the sizes of one Oja step (d ~ 50, a few columns) Eigen's
// dispatch costs more than the arithmetic of a product, and its symmetric product waits on one chain of
// additions at a time, so the hot loops do the arithmetic themselves, in the order Eigen's kernels use, and
// keep Eigen's bits (docs/architecture.md, "Bits kept by speed-ups").
// That order is known where the library is built for x86-64's baseline: Eigen's packets are SSE2's two
// doubles and no multiply can be fused into an add (the build also forbids contraction). Elsewhere the
// callers use Eigen. Tests compare each function with the Eigen expression it replaces, bit for bit.
#include <Eigen/Core>

namespace dpb::core {

#if defined(__x86_64__) && !defined(__FMA__)
inline constexpr bool kEigenOrderWrittenOut =
    Eigen::internal::packet_traits<double>::Vectorizable && Eigen::internal::packet_traits<double>::size == 2;
#else
inline constexpr bool kEigenOrderWrittenOut = false;
#endif

// a^T b summed as Eigen's dot sums it: two packets' lanes, the packets added, the pair reduced, then the odd
// entry.
inline double dot_as_eigen(const double* a, const double* b, Eigen::Index n) {
  if (kEigenOrderWrittenOut && n >= 2) {
    const Eigen::Index pairs_end = n / 2 * 2, quads_end = n / 4 * 4;
    double even = a[0] * b[0], odd = a[1] * b[1];  // packet 0's lanes
    if (pairs_end > 2) {
      double even1 = a[2] * b[2], odd1 = a[3] * b[3];  // packet 1's
      for (Eigen::Index i = 4; i < quads_end; i += 4) {
        even += a[i] * b[i];
        odd += a[i + 1] * b[i + 1];
        even1 += a[i + 2] * b[i + 2];
        odd1 += a[i + 3] * b[i + 3];
      }
      even += even1;
      odd += odd1;
      if (pairs_end > quads_end) {
        even += a[quads_end] * b[quads_end];
        odd += a[quads_end + 1] * b[quads_end + 1];
      }
    }
    const double sum = even + odd;
    return pairs_end < n ? sum + a[n - 1] * b[n - 1] : sum;
  }
  return Eigen::Map<const Eigen::VectorXd>(a, n).dot(Eigen::Map<const Eigen::VectorXd>(b, n));
}

// Whether remove_span_as_eigen has the bits of
//     c.noalias() = U.transpose() * v;  out = v;  out.noalias() -= U * c;
// for a d x r matrix U and a d-vector v held as d x 1 matrices (Eigen's product dispatch is on runtime
// shapes). Below d + r + 1 = 20 Eigen takes a coefficient-based product instead of its GEMV kernels; from
// r = 128 its column-major GEMV subtracts a partial sum per block of 16 (or 4) columns.
inline bool remove_span_written_out(Eigen::Index d, Eigen::Index r) {
  return kEigenOrderWrittenOut && r >= 1 && r < 128 && d + r + 1 >= 20;
}

// c = U^T v (r entries) and out = v - U c (d entries), the component of v outside U's span when U's columns
// are orthonormal, in the bits of the expressions above. Only where remove_span_written_out(d, r) holds (the
// callers keep those expressions for the other shapes); out may be v itself.
void remove_span_as_eigen(const Eigen::MatrixXd& U, const double* v, double* c, double* out);

// ||B_l||_F^2 for `count` d x k blocks stored one after another from `blocks` (each column after column), in
// the bits of Eigen's squaredNorm() of a d x k block with an outer stride (a Ref<MatrixXd>): one packet's two
// lanes over every column's pairs of rows in turn, the lanes added, then each column's odd last row. One
// block's sum is a chain of d k / 2 additions; four blocks are summed side by side so that their chains
// overlap.
void frobenius_squared_norms_as_eigen(const double* blocks, Eigen::Index count, Eigen::Index d,
                                      Eigen::Index k, double* out);

// y = alpha S x for a symmetric n x n matrix S read from its lower triangle (column-major, outer stride
// `stride`), in the bits of Eigen's `y.noalias() = S.selfadjointView<Eigen::Lower>() * (alpha * x)` (with
// alpha = 1, Spectra's DenseSymMatProd: the product of every Lanczos step on a covariance; with the
// reflector's coefficient, each step of a Householder tridiagonalisation). Eigen walks the columns in pairs,
// each pair's two dot products a chain of dependent additions; here two pairs run side by side, four rows at
// a time (one AVX2 register where the CPU has it, else two SSE2 packets), each chain in Eigen's order. The
// split of a pair's rows into scalar and packet steps follows y's address, as Eigen's does. y must overlap
// neither S nor x.
void symmetric_product_as_eigen(const double* S, Eigen::Index n, Eigen::Index stride, const double* x,
                                double* y, double alpha = 1.0);

// Householder tridiagonalisation of a symmetric matrix A (its lower triangle is read), in place, in the bits
// of Eigen's Tridiagonalization::compute: A's diagonal and subdiagonal become the tridiagonal form, the
// reflectors' vectors lie below the subdiagonal, and `householder` gets their n - 1 coefficients. Eigen's
// own loop with its symmetric product (most of the time at a Gram matrix's sizes) written out as above.
void tridiagonalize_as_eigen(Eigen::MatrixXd& A, Eigen::VectorXd& householder);

}  // namespace dpb::core
