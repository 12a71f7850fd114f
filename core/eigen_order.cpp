#include "core/eigen_order.hpp"

#include <algorithm>

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

}  // namespace dpb::core
