// The four-column rank-one products (core/lane_products_avx2.hpp) must give the bits of Eigen's products, as
// the eight-column path does. Called directly, so that they are tested on every CPU with AVX2, also where
// the AVX-512 clone is preferred.
#include "core/lane_products_avx2.hpp"

#include <catch2/catch.hpp>
#include <vector>

#include "core/cpu_level.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"
#include "support/same_bits.hpp"

namespace lanes = dpb::core::lane_products_avx2;
using dpb::test::same_bits;

namespace {

// Whether this CPU can run the kernels (x86-64-v3 functions); a warning where it cannot.
bool runs_here() {
  if (dpb::core::has_avx2()) return true;
  WARN("skipped: this CPU has no AVX2");
  return false;
}

}  // namespace

TEST_CASE("four-column rank-one products have Eigen's bits, with or without a base, strided, base in place",
          "[sample_matrices]") {
  if (!runs_here()) return;
  dpb::core::Rng rng(31, 0);
  std::vector<Eigen::Index> dims = {3, 4, 5, 6, 7, 8, 9, 10, 11, 17, 50, 51, 127, 512};
  for (const Eigen::Index d : dims)
    for (const Eigen::Index k : {1, 2, 3, 4, 5, 8, 9, 13})
      for (const Eigen::Index count : {1, 2, 3, 7}) {
        CAPTURE(d, k, count);
        // Q, base and out are blocks of taller matrices: their columns lie further apart than d.
        // A zero row: its entries are 0 x s + 0 = +0 whatever the sign of s (a dropped "+ 0" leaves -0).
        Eigen::MatrixXd X = dpb::core::standard_normal_matrix(rng, d, count);
        X.row(d / 2).setZero();
        const Eigen::MatrixXd Qt = dpb::core::standard_normal_matrix(rng, d + 2, k);
        const Eigen::MatrixXd base_t = dpb::core::standard_normal_matrix(rng, d + 1, k);
        const auto Q = Qt.topRows(d);
        const auto base = base_t.topRows(d);
        Eigen::MatrixXd expected(d, count * k), plus_base(d, count * k);
        for (Eigen::Index l = 0; l < count; ++l)
          for (Eigen::Index j = 0; j < k; ++j) {
            const double s = X.col(l).dot(Q.col(j));
            expected.col(l * k + j) = Eigen::VectorXd::Zero(d) + X.col(l) * s;
            plus_base.col(l * k + j) = base.col(j) + X.col(l) * s;
          }
        Eigen::MatrixXd tall = Eigen::MatrixXd::Constant(d + 3, count * k, -1.0);
        lanes::rank_one_products(X.data(), count, Q.data(), d + 2, d, k, nullptr, 0, tall.data(), d + 3);
        CHECK(same_bits(tall.topRows(d), expected));
        CHECK((tall.bottomRows(3).array() == -1.0).all());  // nothing written outside the blocks
        lanes::rank_one_products(X.data(), count, Q.data(), d + 2, d, k, base.data(), d + 1, tall.data(),
                                 d + 3);
        CHECK(same_bits(tall.topRows(d), plus_base));
        // The base may be block 0 itself (sample 0 is written last).
        tall.topRows(d).leftCols(k) = base;
        lanes::rank_one_products(X.data(), count, Q.data(), d + 2, d, k, tall.data(), d + 3, tall.data(),
                                 d + 3);
        CHECK(same_bits(tall.topRows(d), plus_base));
      }
}

TEST_CASE("a four-column shifted product has Eigen's bits with 1 to 16 directions in the shift",
          "[sample_matrices]") {
  if (!runs_here()) return;
  dpb::core::Rng rng(32, 0);
  for (const Eigen::Index d : {3, 4, 7, 20, 21, 50})
    for (const Eigen::Index k : {1, 2, 3, 4, 5, 8, 9})
      for (const Eigen::Index r : {1, 2, 3, 15, 16}) {
        CAPTURE(d, k, r);
        // A zero row in W and x: its entries are sums of signed zeros onto +0 (a dropped "0 +" leaves -0).
        Eigen::MatrixXd W = dpb::core::standard_normal_matrix(rng, d, r);
        const Eigen::VectorXd w = dpb::core::standard_normal_matrix(rng, r, 1);
        Eigen::VectorXd x = dpb::core::standard_normal_matrix(rng, d, 1);
        W.row(1).setZero();
        x[1] = 0.0;
        const Eigen::MatrixXd Qt = dpb::core::standard_normal_matrix(rng, d + 2, k);
        const auto Q = Qt.topRows(d);
        // (C + x x^T) Q as Eigen sums it, term by term onto zero.
        Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(d, k);
        for (Eigen::Index l = 0; l < r; ++l)
          for (Eigen::Index j = 0; j < k; ++j) expected.col(j) += W.col(l) * (w[l] * W.col(l).dot(Q.col(j)));
        for (Eigen::Index j = 0; j < k; ++j) expected.col(j) += x * x.dot(Q.col(j));
        Eigen::MatrixXd tall = Eigen::MatrixXd::Constant(d + 3, k, -1.0);
        lanes::shifted_product(W.data(), w.data(), r, x.data(), Q.data(), d + 2, d, k, tall.data(), d + 3);
        CHECK(same_bits(tall.topRows(d), expected));
        CHECK((tall.bottomRows(3).array() == -1.0).all());
      }
}
