#include "core/eigen_order.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <Eigen/Householder>

#include "core/errors.hpp"

namespace dpb::core {
namespace {

// One row of Eigen's row-major GEMV (the lhs U^T): each lane of a packet sums its half of the pairs from
// zero, the lanes are added, then the odd entry.
double gemv_row_as_eigen(const double* a, const double* b, Eigen::Index n) {
  double even = 0, odd = 0;
  Eigen::Index j = 0;
  for (; j + 2 <= n; j += 2) {
    even += a[j] * b[j];
    odd += a[j + 1] * b[j + 1];
  }
  const double sum = even + odd;
  return j < n ? sum + a[j] * b[j] : sum;
}

// out = v - U c as Eigen's column-major GEMV with alpha = -1 does it: per row, the products summed from zero
// column by column, then subtracted. Rows are independent, so any vector width gives these bits (a block of
// rows at a time on the stack).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
void subtract_combination(const double* U, Eigen::Index d, Eigen::Index r, const double* c, const double* v,
                          double* out) {
  constexpr Eigen::Index kBlock = 64;
  double sum[kBlock];
  for (Eigen::Index first = 0; first < d; first += kBlock) {
    const Eigen::Index m = std::min(kBlock, d - first);
    const double* u = U + first;
    for (Eigen::Index i = 0; i < m; ++i) sum[i] = 0.0 + u[i] * c[0];
    for (Eigen::Index j = 1; j < r; ++j)
      for (Eigen::Index i = 0; i < m; ++i) sum[i] += u[j * d + i] * c[j];
    for (Eigen::Index i = 0; i < m; ++i) out[first + i] = v[first + i] - sum[i];
  }
}

// The squared norms of the P blocks at b[0..P), interleaved (see frobenius_squared_norms_as_eigen). A
// packet's first value is its first pair's squares, the same as adding them to zero (a square is never -0).
template <int P>
void squared_norms_as_eigen(const double* const* b, Eigen::Index d, Eigen::Index k, double* out) {
  const Eigen::Index pairs_end = d / 2 * 2;
  double even[P] = {}, odd[P] = {};
  for (Eigen::Index j = 0; j < k; ++j)
    for (Eigen::Index i = j * d; i < j * d + pairs_end; i += 2)
      for (int p = 0; p < P; ++p) {
        even[p] += b[p][i] * b[p][i];
        odd[p] += b[p][i + 1] * b[p][i + 1];
      }
  for (int p = 0; p < P; ++p) {
    double sum = even[p] + odd[p];
    if (pairs_end < d)
      for (Eigen::Index j = 0; j < k; ++j) sum += b[p][j * d + d - 1] * b[p][j * d + d - 1];
    out[p] = sum;
  }
}

// Eigen's selfadjoint_matrix_vector_product (column-major, lower), written for one column pair at a time. A
// packet is SSE2's two doubles; a quad is two packets side by side (one AVX2 register, or two SSE2 ones).
using Packet = double __attribute__((vector_size(16)));
using Quad = double __attribute__((vector_size(32)));

// Columns j and j + 1: their entries below the diagonal block, alpha x_j and alpha x_{j+1}, and the partial
// sums of their dot products with x (Eigen's t2, t3 for the scalar steps, ptmp2, ptmp3 for the packet steps).
struct ColumnPair {
  const double* a0;
  const double* a1;
  double t0, t1;
  double t2 = 0, t3 = 0;
  Packet p2 = {0, 0}, p3 = {0, 0};
};

// The pair's diagonal block: what Eigen does before the rows below it.
__attribute__((always_inline)) inline ColumnPair begin_pair(const double* S, Eigen::Index stride,
                                                            Eigen::Index j, const double* x, double alpha,
                                                            double* y) {
  ColumnPair c{S + j * stride, S + (j + 1) * stride, alpha * x[j], alpha * x[j + 1]};
  y[j] += c.a0[j] * c.t0;
  y[j + 1] += c.a1[j + 1] * c.t1;
  y[j + 1] += c.a0[j + 1] * c.t0;
  c.t2 += c.a0[j + 1] * x[j + 1];
  return c;
}

// Row i as Eigen's scalar steps (before the first aligned packet of y, and after the last) take it.
__attribute__((always_inline)) inline void scalar_row(ColumnPair& c, Eigen::Index i, const double* x,
                                                      double* y) {
  y[i] += c.a0[i] * c.t0 + c.a1[i] * c.t1;
  c.t2 += c.a0[i] * x[i];
  c.t3 += c.a1[i] * x[i];
}

// Adds a step's products to a pair's packet partial sum: a packet at once, a quad's two halves in turn.
__attribute__((always_inline)) inline void add_products(Packet& sum, const Packet& products) {
  sum = products + sum;
}
__attribute__((always_inline)) inline void add_products(Packet& sum, const Quad& products) {
  sum = Packet{products[0], products[1]} + sum;
  sum = Packet{products[2], products[3]} + sum;
}

// Rows [i, i + width of V) as Eigen's packet steps take them, for P pairs, pair after pair on each row (Eigen
// finishes a pair before the next, and each row's additions come in that order).
template <class V, int P>
__attribute__((always_inline)) inline void packet_step(ColumnPair* c, Eigen::Index i, const double* x,
                                                       double* y) {
  V out, b, a0, a1;
  std::memcpy(&out, y + i, sizeof out);
  std::memcpy(&b, x + i, sizeof b);
  for (int p = 0; p < P; ++p) {
    std::memcpy(&a0, c[p].a0 + i, sizeof a0);
    std::memcpy(&a1, c[p].a1 + i, sizeof a1);
    out = a0 * c[p].t0 + (a1 * c[p].t1 + out);
    add_products(c[p].p2, a0 * b);
    add_products(c[p].p3, a1 * b);
  }
  std::memcpy(y + i, &out, sizeof out);
}

// Rows [first, end), end - first even, for P pairs whose packets start at `first`: four rows at a time.
template <int P>
__attribute__((always_inline)) inline void packet_rows(ColumnPair* c, Eigen::Index first, Eigen::Index end,
                                                       const double* x, double* y) {
  const Eigen::Index quads = (end - first) / 4;
  for (Eigen::Index q = 0; q < quads; ++q) packet_step<Quad, P>(c, first + 4 * q, x, y);
  if ((end - first) % 4 != 0) packet_step<Packet, P>(c, first + 4 * quads, x, y);
}

__attribute__((always_inline)) inline void end_pair(const ColumnPair& c, Eigen::Index j, double alpha,
                                                    double* y) {
  y[j] += alpha * (c.t2 + (c.p2[0] + c.p2[1]));
  y[j + 1] += alpha * (c.t3 + (c.p3[0] + c.p3[1]));
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void symmetric_product_in_pairs(const double* S, Eigen::Index n, Eigen::Index stride, const double* x,
                                double alpha, double* y) {
  std::fill(y, y + n, 0.0);
  // Eigen's split: column pairs j < bound, then single columns. Every pair's rows start at an even offset
  // from y, so all pairs have the same scalar head (one row where y is not 16-byte aligned) and tail (one
  // row where the rest is odd).
  const Eigen::Index bound = std::max<Eigen::Index>(0, n - 8) & ~Eigen::Index{1};
  const Eigen::Index head =
      static_cast<Eigen::Index>((reinterpret_cast<std::uintptr_t>(y) / sizeof(double)) & 1);
  const Eigen::Index tail = (n - head) & 1, packets_end = n - tail;
  Eigen::Index j = 0;
  for (; j + 2 < bound; j += 4) {  // pairs j and j + 2 side by side, below the rows only the first one has
    ColumnPair c[2];
    c[0] = begin_pair(S, stride, j, x, alpha, y);
    if (head) scalar_row(c[0], j + 2, x, y);
    packet_rows<1>(c, j + 2 + head, j + 4 + head, x, y);
    c[1] = begin_pair(S, stride, j + 2, x, alpha, y);
    if (head) scalar_row(c[1], j + 4, x, y);
    packet_rows<2>(c, j + 4 + head, packets_end, x, y);
    if (tail)
      for (auto& pair : c) scalar_row(pair, n - 1, x, y);
    end_pair(c[0], j, alpha, y);
    end_pair(c[1], j + 2, alpha, y);
  }
  for (; j < bound; j += 2) {
    ColumnPair c = begin_pair(S, stride, j, x, alpha, y);
    if (head) scalar_row(c, j + 2, x, y);
    packet_rows<1>(&c, j + 2 + head, packets_end, x, y);
    if (tail) scalar_row(c, n - 1, x, y);
    end_pair(c, j, alpha, y);
  }
  for (; j < n; ++j) {
    const double* a = S + j * stride;
    const double xj = alpha * x[j];
    double t = 0;
    y[j] += a[j] * xj;
    for (Eigen::Index i = j + 1; i < n; ++i) {
      y[i] += a[i] * xj;
      t += a[i] * x[i];
    }
    y[j] += alpha * t;
  }
}

// A's lower triangle (n x n, outer stride `stride`) minus v w^T + w v^T, as Eigen's
// selfAdjointView<Lower>().rankUpdate(v, w, -1) adds it column by column: each entry plus ((-v_j) w_i +
// (-w_j) v_i). Entries are independent, so any vector width gives these bits (Eigen's uses SSE2 packets).
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
void subtract_symmetric_rank_two(double* A, Eigen::Index n, Eigen::Index stride, const double* v, const double* w) {
  for (Eigen::Index j = 0; j < n; ++j) {
    double* a = A + j * stride;
    const double minus_v = -v[j], minus_w = -w[j];
    for (Eigen::Index i = j; i < n; ++i) a[i] += minus_v * w[i] + minus_w * v[i];
  }
}

}  // namespace

void remove_span_as_eigen(const Eigen::MatrixXd& U, const double* v, double* c, double* out) {
  const Eigen::Index d = U.rows(), r = U.cols();
  // Eigen's product of a one-row lhs and a vector is its dot product; with more rows, its GEMV. Either adds
  // the result to a zeroed destination.
  if (r == 1)
    c[0] = 0.0 + dot_as_eigen(U.data(), v, d);
  else
    for (Eigen::Index j = 0; j < r; ++j) c[j] = 0.0 + gemv_row_as_eigen(U.col(j).data(), v, d);
  subtract_combination(U.data(), d, r, c, v, out);
}

void frobenius_squared_norms_as_eigen(const double* blocks, Eigen::Index count, Eigen::Index d,
                                      Eigen::Index k, double* out) {
  const Eigen::Index size = d * k;
  Eigen::Index l = 0;
  if (kEigenOrderWrittenOut && d >= 2) {  // below two rows Eigen sums entry by entry
    for (; l + 4 <= count; l += 4) {
      const double* b[4] = {blocks + l * size, blocks + (l + 1) * size, blocks + (l + 2) * size,
                            blocks + (l + 3) * size};
      squared_norms_as_eigen<4>(b, d, k, out + l);
    }
    for (; l < count; ++l) {
      const double* b[1] = {blocks + l * size};
      squared_norms_as_eigen<1>(b, d, k, out + l);
    }
  }
  for (; l < count; ++l)
    out[l] = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>(blocks + l * size, d, k,
                                                                        Eigen::OuterStride<>(d))
                 .squaredNorm();
}

void symmetric_product_as_eigen(const double* S, Eigen::Index n, Eigen::Index stride, const double* x,
                                double* y, double alpha) {
  if (kEigenOrderWrittenOut) return symmetric_product_in_pairs(S, n, stride, x, alpha, y);
  using Matrix = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
  Eigen::Map<Eigen::VectorXd>(y, n).noalias() =
      Matrix(S, n, n, Eigen::OuterStride<>(stride)).selfadjointView<Eigen::Lower>() *
      (alpha * Eigen::Map<const Eigen::VectorXd>(x, n));
}

void tridiagonalize_as_eigen(Eigen::MatrixXd& A, Eigen::VectorXd& householder) {
  const Eigen::Index n = A.rows();
  if (A.cols() != n || n < 1) throw InvalidArgument("tridiagonalize_as_eigen: needs a square matrix");
  householder.resize(n - 1);
  // Eigen's tridiagonalization_inplace, step for step; its symmetric product and rank-2 update written out.
  for (Eigen::Index i = 0; i + 1 < n; ++i) {
    const Eigen::Index rest = n - i - 1;
    auto v = A.col(i).tail(rest);
    double h = 0, beta = 0;
    v.makeHouseholderInPlace(h, beta);
    v(0) = 1;  // the reflector's vector, its leading 1 written in place
    auto w = householder.tail(rest);
    symmetric_product_as_eigen(&A(i + 1, i + 1), rest, A.outerStride(), v.data(), w.data(), h);
    w += (h * -0.5 * w.dot(v)) * v;
    subtract_symmetric_rank_two(&A(i + 1, i + 1), rest, A.outerStride(), v.data(), w.data());
    v(0) = beta;
    householder(i) = h;
  }
}

}  // namespace dpb::core
