#include "core/sample_matrices.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"
#include "support/same_bits.hpp"

using dpb::InvalidArgument;
using namespace dpb::core;
using dpb::test::same_bits;

// Allocation counting for the "apply does not allocate" test.
//
// Eigen's EIGEN_RUNTIME_NO_MALLOC cannot be used here: dpb_core is compiled without it, so the
// allocations inlined into apply() carry no check (and defining it in this file only would give
// Eigen's inline functions two definitions, an ODR violation); besides, its check is an
// eigen_assert, compiled out under NDEBUG. A replacement operator new would not see Eigen either:
// Eigen allocates with std::malloc. So this file replaces malloc, calloc and realloc for the whole
// test executable (glibc allows that) by wrappers that forward to glibc's own __libc_* functions and
// count calls while `counting` is set. Sanitizers replace malloc too, so under them the test is left
// out.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define DPB_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DPB_SANITIZED 1
#endif
#if defined(__GLIBC__) && !defined(DPB_SANITIZED)
#define DPB_COUNT_MALLOC 1
namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace
extern "C" {
void* __libc_malloc(std::size_t size) noexcept;
void* __libc_calloc(std::size_t count, std::size_t size) noexcept;
void* __libc_realloc(void* p, std::size_t size) noexcept;
void* malloc(std::size_t size) noexcept {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, size);
}
}
#endif

namespace {

double largest_entry(const Eigen::MatrixXd& M) { return M.cwiseAbs().maxCoeff(); }

struct ShiftData {
  Eigen::MatrixXd W;
  Eigen::VectorXd w;
  Eigen::MatrixXd X;
};

// Shift of rank r <= 3 with weights 5, 2.5, 0.75 on a Haar frame; n Gaussian sample vectors.
ShiftData shift_data(Rng& rng, Eigen::Index d, Eigen::Index r, Eigen::Index n) {
  return {haar_frame(rng, d, r), Eigen::Vector3d(5, 2.5, 0.75).head(r), standard_normal_matrix(rng, d, n)};
}

}  // namespace

TEST_CASE("VectorSamples: apply(i, Q) = (x_i x_i^T) Q", "[sample_matrices]") {
  Rng rng(21, 0);
  const Eigen::MatrixXd X = standard_normal_matrix(rng, 6, 4);
  const VectorSamples samples(X);
  REQUIRE(samples.n() == 4);
  REQUIRE(samples.d() == 6);
  CHECK(samples.vectors() == X);
  const Eigen::MatrixXd Q = standard_normal_matrix(rng, 6, 3);
  Eigen::MatrixXd out = Eigen::MatrixXd::Constant(6, 3, 123.0);  // stale contents must be overwritten
  for (Eigen::Index i = 0; i < 4; ++i) {
    samples.apply(i, Q, out);
    const Eigen::MatrixXd A = X.col(i) * X.col(i).transpose();
    CHECK(largest_entry(out - A * Q) < 1e-12);
  }
  // Hand case: x = (1, 2), Q = I -> x x^T = [[1, 2], [2, 4]].
  const VectorSamples one(Eigen::Vector2d(1, 2));
  Eigen::Matrix2d out2;
  one.apply(0, Eigen::Matrix2d::Identity(), out2);
  Eigen::Matrix2d expected;
  expected << 1, 2, 2, 4;
  CHECK(out2 == expected);
}

TEST_CASE("VectorSamples: apply writes into blocks of larger matrices", "[sample_matrices]") {
  Rng rng(21, 1);
  const Eigen::MatrixXd X = standard_normal_matrix(rng, 5, 3);
  const VectorSamples samples(X);
  const Eigen::MatrixXd big_Q = standard_normal_matrix(rng, 5, 4);
  Eigen::MatrixXd big_out = Eigen::MatrixXd::Zero(5, 4);
  samples.apply(2, big_Q.middleCols(1, 2), big_out.rightCols(2));
  CHECK(largest_entry(big_out.rightCols(2) - X.col(2) * (X.col(2).transpose() * big_Q.middleCols(1, 2))) <
        1e-12);
  CHECK(big_out.leftCols(2).isZero(0));
}

TEST_CASE("ShiftedVectorSamples: apply(i, Q) = (C + x_i x_i^T) Q", "[sample_matrices]") {
  Rng rng(22, 0);
  const ShiftData data = shift_data(rng, 7, 3, 5);
  const ShiftedVectorSamples samples(data.W, data.w, data.X);
  REQUIRE(samples.n() == 5);
  REQUIRE(samples.d() == 7);
  const Eigen::MatrixXd C = data.W * data.w.asDiagonal() * data.W.transpose();
  CHECK(largest_entry(samples.shift() - C) < 1e-14);
  const Eigen::MatrixXd Q = haar_frame(rng, 7, 2);
  Eigen::MatrixXd out = Eigen::MatrixXd::Constant(7, 2, -1.0);
  for (Eigen::Index i = 0; i < 5; ++i) {
    samples.apply(i, Q, out);
    const Eigen::MatrixXd A = C + data.X.col(i) * data.X.col(i).transpose();
    CHECK(largest_entry(out - A * Q) < 1e-12);
  }
  // Hand case: C = 2 e1 e1^T, x = e2, Q = I -> A = diag(2, 1).
  const ShiftedVectorSamples hand(Eigen::Vector2d(1, 0), Eigen::VectorXd::Constant(1, 2.0),
                                  Eigen::Vector2d(0, 1));
  Eigen::Matrix2d out2;
  hand.apply(0, Eigen::Matrix2d::Identity(), out2);
  CHECK(out2 == Eigen::Vector2d(2, 1).asDiagonal().toDenseMatrix());
}

TEST_CASE("SampleMatrices: apply_range is apply sample by sample, bit for bit", "[sample_matrices]") {
  Rng rng(23, 0);
  const ShiftData data = shift_data(rng, 9, 3, 12);
  const ShiftedVectorSamples shifted(data.W, data.w, data.X);
  const VectorSamples plain(data.X);
  const Eigen::MatrixXd Q = haar_frame(rng, 9, 4);
  for (const SampleMatrices* s :
       {static_cast<const SampleMatrices*>(&shifted), static_cast<const SampleMatrices*>(&plain)}) {
    Eigen::MatrixXd many = Eigen::MatrixXd::Constant(9, 4 * 7, -1.0), one(9, 4);
    s->apply_range(3, 7, Q, many);
    for (Eigen::Index l = 0; l < 7; ++l) {
      s->apply(3 + l, Q, one);
      CHECK(many.middleCols(4 * l, 4) == one);  // the shared C Q is computed once, identically
    }
    Eigen::MatrixXd none(9, 0);
    CHECK_NOTHROW(s->apply_range(12, 0, Q, none));
    Eigen::MatrixXd past(9, 20);
    CHECK_THROWS_AS(s->apply_range(8, 5, Q, past), InvalidArgument);  // past n
    Eigen::MatrixXd wrong(9, 4 * 6);
    CHECK_THROWS_AS(s->apply_range(3, 7, Q, wrong), InvalidArgument);  // out not d x count k
    Eigen::MatrixXd M(9, 8 * 4);
    M.middleCols(8, 4) = Q;
    CHECK_THROWS_AS(s->apply_range(0, 7, M.middleCols(8, 4), M.leftCols(28)), InvalidArgument);  // overlap
    CHECK_NOTHROW(s->apply_range(0, 7, M.rightCols(4), M.leftCols(28)));  // same matrix, disjoint
  }
}

namespace {
// The products as first written: zero, then x (x^T Q) added for each factor x in order, with Eigen's dot.
// The range kernels of VectorSamples and FactorSamples must give these bits (stored results depend on them).
Eigen::MatrixXd summed_rank_one_products(const Eigen::MatrixXd& factors, const Eigen::MatrixXd& Q) {
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(Q.rows(), Q.cols());
  for (Eigen::Index l = 0; l < factors.cols(); ++l)
    for (Eigen::Index j = 0; j < Q.cols(); ++j) out.col(j) += factors.col(l) * factors.col(l).dot(Q.col(j));
  return out;
}

// (C + x x^T) Q for C = W diag(w) W^T as Eigen sums it, term by term onto zero.
Eigen::MatrixXd shifted_product_as_eigen(const Eigen::MatrixXd& W, const Eigen::VectorXd& w,
                                         const Eigen::VectorXd& x, const Eigen::MatrixXd& Q) {
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(Q.rows(), Q.cols());
  for (Eigen::Index l = 0; l < W.cols(); ++l)
    for (Eigen::Index j = 0; j < Q.cols(); ++j) out.col(j) += W.col(l) * (w[l] * W.col(l).dot(Q.col(j)));
  for (Eigen::Index j = 0; j < Q.cols(); ++j) out.col(j) += x * x.dot(Q.col(j));
  return out;
}
}  // namespace

TEST_CASE("ShiftedVectorSamples: apply has Eigen's bits with 1 to 17 directions in the shift",
          "[sample_matrices]") {
  // One sample's product takes Q's columns in lanes for up to 16 directions (then Eigen): at k = 8 every r up
  // to 16 does, at k = 5 only r >= 3. d = 20 and 21 (an odd row after the pairs); Q and out blocks of taller
  // matrices, so that their columns lie further apart than d. Positive entries but a row of -0 in W and in
  // sample 1 make every term of that row -0: Eigen's sum from zero makes it +0.
  Rng rng(41, 0);
  for (const Eigen::Index d : {20, 21})
    for (const Eigen::Index k : {5, 8})
      for (const Eigen::Index r : {1, 2, 3, 15, 16, 17}) {
        CAPTURE(d, k, r);
        Eigen::MatrixXd W = standard_normal_matrix(rng, d, r).cwiseAbs(),
                        X = standard_normal_matrix(rng, d, 3).cwiseAbs();
        W.row(4).setConstant(-0.0);
        X(4, 1) = -0.0;
        const Eigen::VectorXd w = Eigen::VectorXd::LinSpaced(r, 2.0, 0.5);
        Eigen::MatrixXd tall_q = Eigen::MatrixXd::Zero(d + 2, k), tall_out(d + 3, k);
        tall_q.topRows(d) = haar_frame(rng, d, k).cwiseAbs();
        const Eigen::MatrixXd Q = tall_q.topRows(d);
        const ShiftedVectorSamples samples(W, w, X);
        for (Eigen::Index i = 0; i < 3; ++i) {
          tall_out.setConstant(-1.0);
          auto out = tall_out.topRows(d);
          samples.apply(i, tall_q.topRows(d), out);
          CHECK(same_bits(out, shifted_product_as_eigen(W, w, X.col(i), Q)));
          CHECK((tall_out.bottomRows(3).array() == -1.0).all());  // nothing written outside the block
          if (i == 1)
            for (Eigen::Index j = 0; j < k; ++j) CHECK(std::bit_cast<std::uint64_t>(out(4, j)) == 0);  // +0
        }
      }
}

TEST_CASE(
    "VectorSamples and FactorSamples: apply and apply_range give the bits of zero plus Eigen's products",
    "[sample_matrices]") {
  // d = 2 has its own loop; the others sum the dot products in Eigen's order, written out (every length mod
  // 4, one packet and several), for k >= 2 in vector lanes eight columns at a time, or four with AVX2 but not
  // AVX-512 (k = 9 and 13: a second, partial group; d = 512 the stack block's last row). Written into a block
  // of a taller matrix too, whose columns lie further apart than d. ShiftedVectorSamples adds x (x^T Q) to
  // Eigen's C Q.
  Rng rng(29, 0);
  std::vector<Eigen::Index> dims;
  for (Eigen::Index d = 1; d <= 40; ++d) dims.push_back(d);
  for (const Eigen::Index d : {511, 512, 513}) dims.push_back(d);
  for (const Eigen::Index d : dims)
    for (const Eigen::Index k : {1, 2, 3, 8, 9, 13}) {
      if (k > d) continue;
      CAPTURE(d, k);
      const Eigen::MatrixXd X = standard_normal_matrix(rng, d, 12), Q = haar_frame(rng, d, k);
      const VectorSamples vectors(X);
      const FactorSamples factors(X, 2);  // A_i = x_{2i} x_{2i}^T + x_{2i+1} x_{2i+1}^T
      const ShiftData shift = shift_data(rng, d, std::min<Eigen::Index>(d, 3), 12);
      const ShiftedVectorSamples shifted(shift.W, shift.w, shift.X);
      Eigen::MatrixXd shifted_expected(d, 12 * k);
      for (Eigen::Index i = 0; i < 12; ++i) {
        const Eigen::MatrixXd expected = shifted_product_as_eigen(shift.W, shift.w, shift.X.col(i), Q);
        Eigen::MatrixXd one(d, k);
        shifted.apply(i, Q, one);
        CHECK(same_bits(one, expected));
        shifted_expected.middleCols(i * k, k) = expected;
      }
      for (const Eigen::Index count : {1, 2, 3, 12}) {  // an odd sample left over, and block 0 last
        Eigen::MatrixXd range(d, count * k);
        shifted.apply_range(12 - count, count, Q, range);
        CHECK(same_bits(range, shifted_expected.rightCols(count * k)));
      }
      Eigen::MatrixXd one(d, k), tall = Eigen::MatrixXd::Constant(d + 3, 9 * k, -1.0);
      auto range = tall.topRows(d);
      vectors.apply_range(3, 9, Q, range);  // 9 k >= 16 products: by lanes from k = 2
      for (Eigen::Index l = 0; l < 9; ++l) {
        const Eigen::MatrixXd expected = summed_rank_one_products(X.col(3 + l), Q);
        vectors.apply(3 + l, Q, one);
        CHECK(same_bits(one, expected));
        CHECK(same_bits(range.middleCols(l * k, k), expected));
      }
      CHECK((tall.bottomRows(3).array() == -1.0).all());  // nothing written outside the block
      factors.apply_range(0, 6, Q, range.leftCols(6 * k));
      for (Eigen::Index i = 0; i < 6; ++i) {
        const Eigen::MatrixXd expected = summed_rank_one_products(X.middleCols(2 * i, 2), Q);
        factors.apply(i, Q, one);
        CHECK(same_bits(one, expected));
        CHECK(same_bits(range.middleCols(i * k, k), expected));
      }
    }
  // A -0 product comes out as +0, as zero plus it does: at d = 2, and by lanes (d = 3, k = 2, 8 samples).
  const VectorSamples signed_zero(Eigen::Matrix2d{{1.0, 1.0}, {-0.0, 2.0}});
  Eigen::MatrixXd out(2, 1);
  signed_zero.apply(0, Eigen::Vector2d(1, 0), out);
  CHECK(out(0, 0) == 1.0);
  CHECK_FALSE(std::signbit(out(1, 0)));
  Eigen::MatrixXd zeros = Eigen::MatrixXd::Ones(3, 8);
  zeros.row(1).setConstant(-0.0);
  Eigen::MatrixXd lanes_out(3, 16);
  VectorSamples(zeros).apply_range(0, 8, Eigen::Matrix<double, 3, 2>{{1, 0}, {0, 0}, {0, 1}}, lanes_out);
  CHECK((lanes_out.row(0).array() == 1.0).all());
  for (Eigen::Index j = 0; j < 16; ++j) CHECK_FALSE(std::signbit(lanes_out(1, j)));
}

namespace {
// A generator with only `apply`: it gets the default apply_range and apply_range_tangent.
class ExplicitSamples final : public SampleMatrices {
 public:
  explicit ExplicitSamples(std::vector<Eigen::MatrixXd> A) : A_(std::move(A)) {}
  Eigen::Index n() const override { return static_cast<Eigen::Index>(A_.size()); }
  Eigen::Index d() const override { return A_.front().rows(); }
  void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
             Eigen::Ref<Eigen::MatrixXd> out) const override {
    out.noalias() = A_[static_cast<std::size_t>(i)] * Q;
  }

 private:
  std::vector<Eigen::MatrixXd> A_;
};
}  // namespace

TEST_CASE("SampleMatrices: apply_range_tangent is (I - Q Q^T) A_i Q, a sample's block whatever the range",
          "[sample_matrices]") {
  Rng rng(25, 0);
  const ShiftData data = shift_data(rng, 9, 3, 12);
  const ShiftedVectorSamples shifted(data.W, data.w, data.X);
  const VectorSamples plain(data.X);
  std::vector<Eigen::MatrixXd> explicit_A;
  for (Eigen::Index i = 0; i < 12; ++i) explicit_A.push_back(shifted.shift() + data.X.col(i) * data.X.col(i).transpose());
  const ExplicitSamples general(explicit_A);
  const Eigen::MatrixXd Q = haar_frame(rng, 9, 4), Pi = Eigen::MatrixXd::Identity(9, 9) - Q * Q.transpose();
  for (const SampleMatrices* s : {static_cast<const SampleMatrices*>(&shifted),
                                  static_cast<const SampleMatrices*>(&plain),
                                  static_cast<const SampleMatrices*>(&general)}) {
    Eigen::MatrixXd many(9, 4 * 7), single(9, 4), one(9, 4), scratch;
    s->apply_range_tangent(3, 7, Q, many, scratch);
    for (Eigen::Index l = 0; l < 7; ++l) {
      s->apply(3 + l, Q, one);
      // Rounding only: entries are O(10), so 1e-12 is a few hundred ulps of the two evaluation orders.
      CHECK(largest_entry(many.middleCols(4 * l, 4) - Pi * one) < 1e-12);
      if (s != &general) {  // the rank-one forms compute each sample on its own: bit for bit
        s->apply_range_tangent(3 + l, 1, Q, single, scratch);
        CHECK(many.middleCols(4 * l, 4) == single);
      }
    }
    Eigen::MatrixXd wrong(9, 4 * 6);
    CHECK_THROWS_AS(s->apply_range_tangent(3, 7, Q, wrong, scratch), InvalidArgument);
  }
}

TEST_CASE("SampleMatrices: bad index, shapes and aliasing throw InvalidArgument", "[sample_matrices]") {
  Rng rng(23, 0);
  const VectorSamples plain(standard_normal_matrix(rng, 4, 3));
  const ShiftData data = shift_data(rng, 4, 2, 3);
  const ShiftedVectorSamples shifted(data.W, data.w, data.X);
  for (const SampleMatrices* s : std::initializer_list<const SampleMatrices*>{&plain, &shifted}) {
    const Eigen::MatrixXd Q = Eigen::MatrixXd::Identity(4, 2);
    Eigen::MatrixXd out(4, 2);
    CHECK_THROWS_AS(s->apply(-1, Q, out), InvalidArgument);
    CHECK_THROWS_AS(s->apply(3, Q, out), InvalidArgument);
    CHECK_NOTHROW(s->apply(2, Q, out));
    Eigen::MatrixXd wrong_rows(5, 2), wrong_cols(4, 3);
    CHECK_THROWS_AS(s->apply(0, Eigen::MatrixXd::Identity(5, 2), wrong_rows), InvalidArgument);
    CHECK_THROWS_AS(s->apply(0, Q, wrong_cols), InvalidArgument);
    CHECK_THROWS_AS(s->apply(0, Q, wrong_rows), InvalidArgument);
    // out overlapping Q would be zeroed before Q is read.
    Eigen::MatrixXd M = Eigen::MatrixXd::Identity(4, 3);
    CHECK_THROWS_AS(s->apply(0, M.leftCols(2), M.leftCols(2)), InvalidArgument);
    CHECK_THROWS_AS(s->apply(0, M.leftCols(2), M.rightCols(2)), InvalidArgument);
    CHECK_NOTHROW(s->apply(0, M.leftCols(1), M.rightCols(1)));  // same matrix, disjoint columns
  }
}

TEST_CASE("SampleMatrices: constructors validate their input", "[sample_matrices]") {
  Eigen::MatrixXd X = Eigen::MatrixXd::Ones(3, 2);
  X(0, 1) = std::nan("");
  CHECK_THROWS_AS(VectorSamples(X), InvalidArgument);
  const Eigen::MatrixXd W = Eigen::MatrixXd::Identity(3, 2), good_X = Eigen::MatrixXd::Ones(3, 2);
  const Eigen::Vector2d w(1, 2);
  CHECK_NOTHROW(ShiftedVectorSamples(W, w, good_X));
  CHECK_THROWS_AS(ShiftedVectorSamples(W, w, X), InvalidArgument);
  CHECK_THROWS_AS(ShiftedVectorSamples(Eigen::MatrixXd::Identity(4, 2), w, good_X), InvalidArgument);  // d
  CHECK_THROWS_AS(ShiftedVectorSamples(W, Eigen::Vector3d(1, 2, 3), good_X), InvalidArgument);         // r
  CHECK_THROWS_AS(ShiftedVectorSamples(W, Eigen::Vector2d(1, -2), good_X), InvalidArgument);  // C not PSD
  Eigen::MatrixXd bad_W = W;
  bad_W(2, 0) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(ShiftedVectorSamples(bad_W, w, good_X), InvalidArgument);
}

#ifdef DPB_COUNT_MALLOC
TEST_CASE("SampleMatrices: apply and apply_range_tangent allocate nothing", "[sample_matrices]") {
  Rng rng(24, 0);
  const VectorSamples plain(standard_normal_matrix(rng, 50, 10));
  const ShiftData data = shift_data(rng, 50, 3, 10);
  const ShiftedVectorSamples shifted(data.W, data.w, data.X);
  const Eigen::MatrixXd Q = haar_frame(rng, 50, 4);
  Eigen::MatrixXd out(50, 4);

  // The counter itself must see an Eigen temporary, or a pass below would mean nothing.
  counting = true;
  const Eigen::MatrixXd temporary = Q.transpose() * Q;
  counting = false;
  REQUIRE(allocations.load() > 0);

  Eigen::MatrixXd tangent(50, 4 * 10), scratch;
  plain.apply_range_tangent(0, 10, Q, tangent, scratch);  // sizes the scratch once
  allocations = 0;
  counting = true;
  for (Eigen::Index i = 0; i < 10; ++i) {
    plain.apply(i, Q, out);
    shifted.apply(i, Q, out);
  }
  plain.apply_range_tangent(0, 10, Q, tangent, scratch);
  shifted.apply_range_tangent(0, 10, Q, tangent, scratch);
  counting = false;
  CHECK(allocations.load() == 0);
  CHECK(temporary.rows() == 4);
}
#endif
