// The products behind largest_gram_eigenvalue (core/gram_products.hpp) must sum in the order the header
// states, in both kernels: the baseline's on every CPU, the AVX2 one where the CPU has it. Each is compared
// bit for bit with that order written out one scalar at a time, so a kernel that sums in another order (a
// tile that starts its sums afresh at each depth block, a dot product reduced in another tree) fails.
#include "core/gram_products.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/cpu_level.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"
#include "support/same_bits.hpp"

using namespace dpb::core::gram_products;
using dpb::test::same_bits;
using Eigen::Index;

namespace {

std::vector<Kernel> kernels_here() {
  if (dpb::core::has_avx2()) return {Kernel::baseline, Kernel::avx2};
  WARN("AVX2 kernels skipped: this CPU has no AVX2");
  return {Kernel::baseline};
}

// The Gram matrix of the g x h matrix M(i, t), each entry summed from zero in order of t.
template <class At>
Eigen::MatrixXd gram_in_order(Index g, Index h, At M) {
  Eigen::MatrixXd G(g, g);
  for (Index i = 0; i < g; ++i)
    for (Index j = 0; j < g; ++j) {
      double sum = 0.0;
      for (Index t = 0; t < h; ++t) sum += M(i, t) * M(j, t);
      G(i, j) = sum;
    }
  return G;
}

// dot(a, b) of the header: eight partial sums, reduced as a tree, then the last n % 8 products.
double dot_in_order(const double* a, const double* b, Index n) {
  const Index blocked = n / 8 * 8;
  double s[8] = {};
  for (Index i = 0; i < blocked; ++i) s[i % 8] += a[i] * b[i];
  double sum = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
  for (Index i = blocked; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// D x, each entry summed from zero in column order.
Eigen::VectorXd combination_in_order(const Eigen::Ref<const Eigen::MatrixXd>& D, const Eigen::VectorXd& x) {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(D.rows());
  for (Index l = 0; l < D.cols(); ++l)
    for (Index i = 0; i < D.rows(); ++i) y(i) += D(i, l) * x(l);
  return y;
}

Eigen::VectorXd dots_in_order(const Eigen::Ref<const Eigen::MatrixXd>& D, const Eigen::VectorXd& x) {
  Eigen::VectorXd y(D.cols());
  for (Index l = 0; l < D.cols(); ++l) y(l) = dot_in_order(D.col(l).data(), x.data(), D.rows());
  return y;
}

}  // namespace

// Empty sides, and sizes around the tiles' 4 and 8 rows, the dot products' 8 entries and the 4 columns taken
// at once; depths below 8 and beyond one block of copied columns (32768 doubles: 163 columns of 200 rows,
// 2048 of 16). D is a block of a taller matrix, so its columns lie further apart than its rows; a zero row
// gives sums of zeros. Then the same sizes with columns scaled by 2^-400 .. 2^400 (products that underflow to
// subnormals or zero, and sums that absorb them) and a row of negative zeros (a sum of them from zero is +0).
TEST_CASE("gram_products: both kernels sum the Gram matrix and the Lanczos operator in the stated order",
          "[linalg]") {
  dpb::core::Rng rng(41, 0);
  struct Size {
    Index d, b;
  };
  const std::vector<Size> sizes = {Size{0, 3},     Size{3, 0},     Size{1, 1},    Size{1, 9},
                                   Size{9, 1},     Size{3, 5},     Size{7, 7},    Size{8, 8},
                                   Size{9, 17},    Size{12, 40},   Size{40, 12},  Size{31, 33},
                                   Size{200, 500}, Size{500, 200}, Size{9, 2100}, Size{2100, 9}};
  for (const bool extreme : {false, true})
    for (const Size size : sizes) {
      const auto [d, b] = size;
      CAPTURE(extreme, d, b);
      Eigen::MatrixXd tall = dpb::core::standard_normal_matrix(rng, d + 3, b);
      if (d > 2) tall.row(1).setZero();
      if (extreme) {
        for (Index l = 0; l < b; ++l) tall.col(l) *= std::ldexp(1.0, static_cast<int>(l % 9) * 100 - 400);
        if (d > 3) tall.row(2).setConstant(-0.0);
      }
      const Eigen::Ref<const Eigen::MatrixXd> D = tall.topRows(d);
      REQUIRE((b <= 1 || D.outerStride() == d + 3));
      const Eigen::MatrixXd rows = gram_in_order(d, b, [&](Index i, Index t) { return D(i, t); });
      const Eigen::MatrixXd columns = gram_in_order(b, d, [&](Index i, Index t) { return D(t, i); });
      const Eigen::VectorXd u = dpb::core::standard_normal_matrix(rng, d, 1),
                            w = dpb::core::standard_normal_matrix(rng, b, 1);
      const Eigen::VectorXd rows_middle = dots_in_order(D, u),
                            rows_out = combination_in_order(D, rows_middle);
      const Eigen::VectorXd columns_middle = combination_in_order(D, w),
                            columns_out = dots_in_order(D, columns_middle);
      std::vector<double> scratch;
      for (const Kernel kernel : kernels_here()) {
        CAPTURE(static_cast<int>(kernel));
        Eigen::MatrixXd G;
        gram(D, GramOf::rows, G, scratch, kernel);
        CHECK(same_bits(G, rows));
        gram(D, GramOf::columns, G, scratch, kernel);
        CHECK(same_bits(G, columns));
        Eigen::VectorXd middle(b), out(d);
        apply_gram(D, GramOf::rows, u.data(), middle.data(), out.data(), kernel);
        CHECK(same_bits(middle, rows_middle));
        CHECK(same_bits(out, rows_out));
        middle.resize(d);
        out.resize(b);
        apply_gram(D, GramOf::columns, w.data(), middle.data(), out.data(), kernel);
        CHECK(same_bits(middle, columns_middle));
        CHECK(same_bits(out, columns_out));
      }
    }
}
