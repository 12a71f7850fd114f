#pragma once
// The products behind core::largest_gram_eigenvalue (liu2022 Alg. 4, dugler2026's PRIVRANGE): the smaller
// Gram matrix of a d x b matrix D, and the Lanczos operator that applies it through D. Each entry is summed
// in one fixed order of its own, a chain of rounded products and sums in index order, so the result is the
// same for every vector width and blocking: the AVX2 kernels and the x86-64 baseline's give the same bits.
// (Eigen's product, built for the baseline, runs two lanes wide and sums in depth blocks sized by the CPU's
// caches.)
#include <Eigen/Core>
#include <vector>

namespace dpb::core::gram_products {

enum class GramOf {
  rows,     // D D^T (d x d)
  columns,  // D^T D (b x b)
};

// The kernels: two-lane (the x86-64 baseline) or four-lane (AVX2: call it only where core::has_avx2()). Same
// bits.
enum class Kernel { baseline, avx2 };
Kernel widest_kernel() noexcept;

// G = D D^T or D^T D, the whole symmetric matrix: entry (i, j) is ((0 + p_0) + p_1) + ... over the products
// p_t = D(i, t) D(j, t) (rows) or D(t, i) D(t, j) (columns) in order of t. `scratch` is reused across calls.
void gram(const Eigen::Ref<const Eigen::MatrixXd>& D, GramOf side, Eigen::MatrixXd& G,
          std::vector<double>& scratch, Kernel kernel = widest_kernel());

// out = D (D^T v) (rows: v and out have D's d rows) or D^T (D v) (columns: b entries), `middle` holding D^T v
// (b entries) or D v (d entries) afterwards; the three do not overlap. A product with D^T has entry
// l = dot(D(:, l), x); one with D has entry i = ((0 + x_0 D(i, 0)) + x_1 D(i, 1)) + ... in column order.
// dot(a, b) over n entries: eight partial sums, s_p over entries p, p + 8, ... below n - n % 8 in order from
// zero, then ((s_0 + s_4) + (s_2 + s_6)) + ((s_1 + s_5) + (s_3 + s_7)), then the last n % 8 products added
// in order.
void apply_gram(const Eigen::Ref<const Eigen::MatrixXd>& D, GramOf side, const double* v, double* middle,
                double* out, Kernel kernel = widest_kernel());

}  // namespace dpb::core::gram_products
