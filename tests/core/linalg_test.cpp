#include "core/linalg.hpp"

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"

using dpb::InvalidArgument;
using namespace dpb::core;

namespace {

double max_abs(const Eigen::MatrixXd& M) { return M.cwiseAbs().maxCoeff(); }

Eigen::MatrixXd unit_column(Eigen::Index d, Eigen::Index i) { return Eigen::MatrixXd::Identity(d, d).col(i); }

}  // namespace

TEST_CASE("orthonormalize: orthonormal columns spanning Y, R with nonnegative diagonal", "[linalg]") {
  Rng rng(3, 0);
  for (const auto& [d, k] : {std::pair<Eigen::Index, Eigen::Index>{6, 3}, {4, 4}, {5, 1}}) {
    const Eigen::MatrixXd Y = standard_normal_matrix(rng, d, k);
    const Eigen::MatrixXd Q = orthonormalize(Y);
    REQUIRE(Q.rows() == d);
    REQUIRE(Q.cols() == k);
    CHECK(max_abs(Q.transpose() * Q - Eigen::MatrixXd::Identity(k, k)) < 1e-14);
    // R = Q^T Y is upper triangular with a positive diagonal, and Q R = Y: Q spans Y's columns.
    const Eigen::MatrixXd R = Q.transpose() * Y;
    CHECK(max_abs(R.triangularView<Eigen::StrictlyLower>().toDenseMatrix()) < 1e-13);
    CHECK(R.diagonal().minCoeff() > 0);
    CHECK(max_abs(Q * R - Y) < 1e-13);
  }
}

TEST_CASE("orthonormalize: hand cases and the sign convention", "[linalg]") {
  // A single column is just normalised, whatever its sign: R = |y| >= 0.
  CHECK(max_abs(orthonormalize(Eigen::Vector2d(3, 4)) - Eigen::Vector2d(0.6, 0.8)) < 1e-15);
  CHECK(max_abs(orthonormalize(Eigen::Vector2d(-3, -4)) - Eigen::Vector2d(-0.6, -0.8)) < 1e-15);
  // Y already upper triangular with positive diagonal: Q = I.
  Eigen::Matrix2d Y;
  Y << 1, 1, 0, 1;
  CHECK(max_abs(orthonormalize(Y) - Eigen::Matrix2d::Identity()) < 1e-15);
  // ...with a negative diagonal entry the column's sign follows it.
  Y(1, 1) = -2;
  CHECK(max_abs(orthonormalize(Y) - Eigen::Vector2d(1, -1).asDiagonal().toDenseMatrix()) < 1e-15);
}

TEST_CASE("orthonormalize: a deterministic function of span and column order", "[linalg]") {
  Rng rng(3, 1);
  const Eigen::MatrixXd Y = standard_normal_matrix(rng, 7, 3);
  const Eigen::MatrixXd Q = orthonormalize(Y);
  // Y T for upper-triangular T with positive diagonal has the same Q (QR uniqueness); -Y gives -Q.
  Eigen::Matrix3d T;
  T << 2, -1, 0.5, 0, 0.3, 4, 0, 0, 1.7;
  CHECK(max_abs(orthonormalize(Y * T) - Q) < 1e-13);
  CHECK(max_abs(orthonormalize(-Y) + Q) < 1e-14);
}

TEST_CASE("orthonormalize: invalid input throws InvalidArgument", "[linalg]") {
  CHECK_THROWS_AS(orthonormalize(Eigen::MatrixXd::Ones(2, 3)), InvalidArgument);  // k > d
  CHECK_THROWS_AS(orthonormalize(Eigen::MatrixXd(3, 0)), InvalidArgument);        // k = 0
  Eigen::MatrixXd Y = Eigen::MatrixXd::Identity(3, 2);
  Y(2, 1) = std::nan("");
  CHECK_THROWS_AS(orthonormalize(Y), InvalidArgument);
  Y(2, 1) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(orthonormalize(Y), InvalidArgument);
}

TEST_CASE("top_eigenpairs: diag(1, -5, 3) in algebraic and absolute order", "[linalg]") {
  const Eigen::Matrix3d S = Eigen::Vector3d(1, -5, 3).asDiagonal();

  const EigenPairs alg = top_eigenpairs(S, 3);
  CHECK(max_abs(alg.values - Eigen::Vector3d(3, 1, -5)) < 1e-14);
  CHECK(max_abs(alg.vectors.col(0) - unit_column(3, 2)) < 1e-14);
  CHECK(max_abs(alg.vectors.col(1) - unit_column(3, 0)) < 1e-14);
  CHECK(max_abs(alg.vectors.col(2) - unit_column(3, 1)) < 1e-14);

  const EigenPairs abs = top_eigenpairs(S, 2, EigenOrder::absolute);
  REQUIRE(abs.values.size() == 2);
  REQUIRE(abs.vectors.cols() == 2);
  CHECK(max_abs(abs.values - Eigen::Vector2d(-5, 3)) < 1e-14);
  CHECK(max_abs(abs.vectors.col(0) - unit_column(3, 1)) < 1e-14);
  CHECK(max_abs(abs.vectors.col(1) - unit_column(3, 2)) < 1e-14);

  const EigenPairs top1 = top_eigenpairs(S, 1);
  CHECK(top1.values[0] == Approx(3).epsilon(1e-14));
}

TEST_CASE("top_eigenpairs: a tie |lambda| = |-lambda| puts the positive one first", "[linalg]") {
  const Eigen::Matrix3d S = Eigen::Vector3d(-3, 1, 3).asDiagonal();
  const EigenPairs abs = top_eigenpairs(S, 3, EigenOrder::absolute);
  CHECK(max_abs(abs.values - Eigen::Vector3d(3, -3, 1)) < 1e-14);
}

TEST_CASE("top_eigenpairs: rotated matrix, eigen-equation and sign convention", "[linalg]") {
  Rng rng(8, 0);
  const Eigen::MatrixXd R = haar_frame(rng, 5, 5);
  const Eigen::VectorXd lambda = (Eigen::VectorXd(5) << 4, -6, 0.5, 2, -1).finished();
  const Eigen::MatrixXd S = R * lambda.asDiagonal() * R.transpose();
  const EigenPairs alg = top_eigenpairs(S, 3);
  CHECK(max_abs(alg.values - Eigen::Vector3d(4, 2, 0.5)) < 1e-13);
  const EigenPairs abs = top_eigenpairs(S, 3, EigenOrder::absolute);
  CHECK(max_abs(abs.values - Eigen::Vector3d(-6, 4, 2)) < 1e-13);
  for (const EigenPairs* p : {&alg, &abs}) {
    CHECK(max_abs(p->vectors.transpose() * p->vectors - Eigen::Matrix3d::Identity()) < 1e-13);
    CHECK(max_abs(S * p->vectors - p->vectors * p->values.asDiagonal()) < 1e-12);
    for (Eigen::Index j = 0; j < 3; ++j) {
      Eigen::Index imax;
      p->vectors.col(j).cwiseAbs().maxCoeff(&imax);
      CHECK(p->vectors(imax, j) > 0);  // largest-magnitude entry positive
    }
  }
  // Eigenvectors are the columns of R (for lambda = 4, 2, 0.5: columns 0, 3, 2), up to sign.
  CHECK(std::abs(alg.vectors.col(0).dot(R.col(0))) == Approx(1).epsilon(1e-12));
  CHECK(std::abs(alg.vectors.col(1).dot(R.col(3))) == Approx(1).epsilon(1e-12));
  CHECK(std::abs(alg.vectors.col(2).dot(R.col(2))) == Approx(1).epsilon(1e-12));
  // 2S + 10I has the same eigenvectors in the same order; the sign convention makes the output
  // the same vectors, not merely the same up to sign.
  const EigenPairs shifted = top_eigenpairs(2 * S + 10 * Eigen::MatrixXd::Identity(5, 5), 3);
  CHECK(max_abs(shifted.values - Eigen::Vector3d(18, 14, 11)) < 1e-12);
  CHECK(max_abs(shifted.vectors - alg.vectors) < 1e-12);
}

TEST_CASE("top_eigenpairs: reads only the lower triangle", "[linalg]") {
  Eigen::Matrix2d S;
  S << 2, 99, 1, 2;  // lower triangle: [[2, .], [1, 2]] -> eigenvalues 3, 1
  CHECK(max_abs(top_eigenpairs(S, 2).values - Eigen::Vector2d(3, 1)) < 1e-14);
}

TEST_CASE("top_eigenpairs: invalid input throws InvalidArgument", "[linalg]") {
  const Eigen::Matrix3d S = Eigen::Matrix3d::Identity();
  CHECK_THROWS_AS(top_eigenpairs(S, 0), InvalidArgument);
  CHECK_THROWS_AS(top_eigenpairs(S, 4), InvalidArgument);
  CHECK_THROWS_AS(top_eigenpairs(S, -1, EigenOrder::absolute), InvalidArgument);
  CHECK_THROWS_AS(top_eigenpairs(Eigen::MatrixXd::Identity(3, 2), 1), InvalidArgument);
  Eigen::Matrix3d nan = S;
  nan(2, 0) = std::nan("");
  CHECK_THROWS_AS(top_eigenpairs(nan, 1), InvalidArgument);
}

TEST_CASE("projector: Q Q^T, symmetric and idempotent", "[linalg]") {
  Eigen::Matrix2d expected;
  expected << 0.36, 0.48, 0.48, 0.64;
  CHECK(max_abs(projector(Eigen::Vector2d(0.6, 0.8)) - expected) < 1e-15);
  Rng rng(4, 0);
  const Eigen::MatrixXd Q = haar_frame(rng, 6, 2);
  const Eigen::MatrixXd P = projector(Q);
  CHECK(max_abs(P - P.transpose()) < 1e-15);
  CHECK(max_abs(P * P - P) < 1e-14);
  CHECK(max_abs(P * Q - Q) < 1e-14);
  CHECK(P.trace() == Approx(2).epsilon(1e-14));
}

TEST_CASE("second_moment: X X^T / n, exactly symmetric", "[linalg]") {
  Eigen::Matrix2d X;
  X << 1, 2, 3, 4;  // X X^T = [[5, 11], [11, 25]]
  Eigen::Matrix2d expected;
  expected << 2.5, 5.5, 5.5, 12.5;
  CHECK(max_abs(second_moment(X) - expected) < 1e-15);

  Rng rng(6, 0);
  const Eigen::MatrixXd Z = standard_normal_matrix(rng, 5, 40);
  const Eigen::MatrixXd S = second_moment(Z);
  CHECK(max_abs(S - Z * Z.transpose() / 40.0) < 1e-12);
  CHECK(S == S.transpose());  // bitwise: the upper triangle is a copy of the lower
}

TEST_CASE("second_moment: invalid input throws InvalidArgument", "[linalg]") {
  CHECK_THROWS_AS(second_moment(Eigen::MatrixXd(3, 0)), InvalidArgument);
  Eigen::MatrixXd X = Eigen::MatrixXd::Ones(3, 4);
  X(1, 2) = std::nan("");
  CHECK_THROWS_AS(second_moment(X), InvalidArgument);
}

TEST_CASE("safe_normalize: huge, tiny and ordinary vectors", "[linalg]") {
  // ||1e300 (3, 4)||^2 overflows and ||1e-300 (3, 4)||^2 underflows if squared directly.
  CHECK(max_abs(safe_normalize(Eigen::Vector2d(3e300, 4e300)) - Eigen::Vector2d(0.6, 0.8)) < 1e-15);
  CHECK(max_abs(safe_normalize(Eigen::Vector2d(-3e-300, 4e-300)) - Eigen::Vector2d(-0.6, 0.8)) < 1e-15);
  Rng rng(9, 0);
  const Eigen::VectorXd v = standard_normal_vector(rng, 8);
  const Eigen::VectorXd u = safe_normalize(v);
  CHECK(u.norm() == Approx(1).epsilon(1e-15));
  CHECK(max_abs(u * v.norm() - v) < 1e-14);
}

TEST_CASE("safe_normalize / require_finite: invalid input throws InvalidArgument", "[linalg]") {
  CHECK_THROWS_AS(safe_normalize(Eigen::Vector3d::Zero()), InvalidArgument);
  CHECK_THROWS_AS(safe_normalize(Eigen::VectorXd(0)), InvalidArgument);
  CHECK_THROWS_AS(safe_normalize(Eigen::Vector2d(1, std::nan(""))), InvalidArgument);
  CHECK_THROWS_AS(safe_normalize(Eigen::Vector2d(std::numeric_limits<double>::infinity(), 1)),
                  InvalidArgument);
  CHECK_NOTHROW(require_finite(Eigen::Matrix2d::Identity(), "identity"));
  Eigen::Matrix2d bad = Eigen::Matrix2d::Identity();
  bad(0, 1) = -std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(require_finite(bad, "noise matrix"), Catch::Contains("noise matrix"));
  // The check runs eight lanes at a time and a tail: one bad entry anywhere, of any kind, is found, and
  // huge finite values (whose sums would overflow) pass.
  for (const Eigen::Index size : {1, 7, 8, 9, 64, 203}) {
    Eigen::MatrixXd finite = Eigen::MatrixXd::Constant(size, 1, std::numeric_limits<double>::max());
    CHECK_NOTHROW(require_finite(finite, "huge"));
    for (Eigen::Index at : {Eigen::Index{0}, size / 2, size - 1})
      for (const double v : {std::nan(""), std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity()}) {
        Eigen::MatrixXd m = finite;
        m(at, 0) = v;
        INFO("size " << size << ", entry " << at << " = " << v);
        CHECK_THROWS_AS(require_finite(m, "data"), InvalidArgument);
      }
  }
}

// liu2022 Alg. 4 and dugler2026's PRIVRANGE bin the largest eigenvalue of Gram matrices; this one function
// gives it for both, and must agree with the full solver to rounding level on every kind of spectrum, reading
// the lower triangle only. Rounding level: the bisection stops within 4 ulps of the Gershgorin scale, and the
// two tridiagonalise differently (the full solver scales the matrix first), an error that grows with d
// (measured up to 3.4 eps ||S|| apart at d = 3 and 12 at d = 89; allowed 8 + d/2).
TEST_CASE("largest_eigenvalue: the full solver's largest, to rounding level, from the lower triangle",
          "[linalg]") {
  Rng rng(3, 9);
  LargestEigenvalueWorkspace ws;
  for (const Eigen::Index d :
       {Eigen::Index{1}, Eigen::Index{2}, Eigen::Index{3}, Eigen::Index{50}, Eigen::Index{89}}) {
    const Eigen::MatrixXd A = standard_normal_matrix(rng, d, d + 5);
    const Eigen::MatrixXd gram = A * A.transpose();  // a Wishart-like Gram matrix, as the algorithms bin
    const Eigen::MatrixXd sym = (A.leftCols(d) + A.leftCols(d).transpose()) / 2;  // negative eigenvalues too
    for (const Eigen::MatrixXd& S :
         {gram, sym, Eigen::MatrixXd(-gram), Eigen::MatrixXd(Eigen::MatrixXd::Zero(d, d))}) {
      const double expected = symmetric_eigenvalues(S).maxCoeff();
      const double scale = std::max(1e-300, S.cwiseAbs().rowwise().sum().maxCoeff());
      Eigen::MatrixXd lower_only = S;
      lower_only.triangularView<Eigen::StrictlyUpper>().setConstant(std::nan(""));
      INFO("d = " << d << ", expected " << expected << ", scale " << scale);
      CHECK(std::abs(largest_eigenvalue(lower_only, ws) - expected) <=
            (8 + double(d) / 2) * std::numeric_limits<double>::epsilon() * scale);
    }
  }
  CHECK_THROWS_AS(largest_eigenvalue(Eigen::MatrixXd(2, 3), ws), InvalidArgument);
}

// A caller that needs only an interval (liu2022 Alg. 4 needs the log bin) stops the bisection early; the
// value is the end of the last interval it was shown, which holds the value of the full bisection.
TEST_CASE("largest_eigenvalue: the caller's predicate stops the bisection within its interval", "[linalg]") {
  Rng rng(6, 5);
  LargestEigenvalueWorkspace ws;
  const Eigen::MatrixXd A = standard_normal_matrix(rng, 50, 55);
  const Eigen::MatrixXd S = A * A.transpose();
  const double full = largest_eigenvalue(S, ws);
  int calls = 0;
  double lo_seen = 0, hi_seen = 0;
  const double value = largest_eigenvalue(S, ws, [&](double lo, double hi) {
    ++calls;
    lo_seen = lo, hi_seen = hi;
    return hi - lo < 1e-3 * hi;
  });
  CHECK(value == hi_seen);
  CHECK(hi_seen - lo_seen < 1e-3 * hi_seen);
  CHECK(lo_seen <= full);
  CHECK(full <= hi_seen);
  // From the Gershgorin interval (about twice lambda_max wide) to 1e-3: about 11 steps, 4 passes of three,
  // against about 17 passes to rounding level.
  CHECK(calls <= 6);
}

// A block of rank 2: the Krylov space stops growing after a few steps. Its eigenvalues are then exact, but
// from a fixed start they need not include the largest (a block with its top eigenvector orthogonal to the
// start stops at the next one), so the Gram route decides.
TEST_CASE("largest_gram_eigenvalue: a Krylov space that stops growing hands over to the Gram route",
          "[linalg]") {
  Rng rng(8, 2);
  LargestEigenvalueWorkspace ws;
  const Eigen::MatrixXd D = standard_normal_matrix(rng, 200, 2) * standard_normal_matrix(rng, 2, 135);
  const double expected = symmetric_eigenvalues(D.transpose() * D).maxCoeff();
  for (const Eigen::MatrixXd& M : {D, Eigen::MatrixXd(D.transpose())}) {
    CHECK(std::abs(largest_gram_eigenvalue(M, ws) - expected) <= 1e-12 * expected);
    CHECK(ws.lanczos_steps == 0);
  }
}

namespace {

// Sturm bisection one midpoint at a time: the straightforward form of largest_eigenvalue's last stage.
double bisected_largest(const Eigen::VectorXd& a, const Eigen::VectorXd& e) {
  const Eigen::Index n = a.size();
  double lo = a(0), hi = a(0);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double r = (i > 0 ? std::abs(e(i - 1)) : 0.0) + (i + 1 < n ? std::abs(e(i)) : 0.0);
    lo = std::min(lo, a(i) - r);
    hi = std::max(hi, a(i) + r);
  }
  const double scale = std::max(std::abs(lo), std::abs(hi));
  if (scale == 0) return 0;
  const double pivmin = std::numeric_limits<double>::min() * std::max(1.0, scale * scale);
  for (int it = 0; it < 200 && hi - lo > 4 * std::numeric_limits<double>::epsilon() * scale; ++it) {
    const double x = lo + 0.5 * (hi - lo);
    Eigen::Index below = 0;
    double q = 1;
    for (Eigen::Index i = 0; i < n; ++i) {
      q = a(i) - x - (i > 0 ? e(i - 1) * e(i - 1) / q : 0.0);
      if (std::abs(q) < pivmin) q = -pivmin;
      below += q < 0;
    }
    (below == n ? hi : lo) = x;
  }
  return hi;
}

}  // namespace

// The bisection counts three steps ahead at once (seven midpoints side by side) and then takes the steps one
// midpoint at a time would: the same value, bit for bit, on the tridiagonal form it leaves in the workspace.
TEST_CASE("largest_eigenvalue: its bisection gives one-midpoint-at-a-time bisection's bits", "[linalg]") {
  Rng rng(6, 4);
  LargestEigenvalueWorkspace ws;
  for (const Eigen::Index d :
       {Eigen::Index{2}, Eigen::Index{3}, Eigen::Index{8}, Eigen::Index{50}, Eigen::Index{135}}) {
    const Eigen::MatrixXd A = standard_normal_matrix(rng, d, d + 5);
    const Eigen::MatrixXd gram = A * A.transpose();
    const Eigen::MatrixXd sym = (A.leftCols(d) + A.leftCols(d).transpose()) / 2;
    Eigen::MatrixXd clustered = Eigen::MatrixXd::Identity(d, d);  // equal eigenvalues: every count at a tie
    clustered(0, 0) = 1 + 1e-15;
    for (const Eigen::MatrixXd& S : {gram, sym, Eigen::MatrixXd(-gram), clustered}) {
      const double value = largest_eigenvalue(S, ws);
      INFO("d = " << d);
      CHECK(std::bit_cast<std::uint64_t>(value) ==
            std::bit_cast<std::uint64_t>(bisected_largest(ws.diagonal, ws.subdiagonal)));
    }
  }
}

// Both algorithms bin lambda_max of a block's Gram matrix, formed on its smaller side: a d x b block and its
// transpose give lambda_max(D D^T) = lambda_max(D^T D), to the rounding level above (m = min(d, b)), from a
// block of a wider matrix too (Alg. 4's subsets are column blocks).
TEST_CASE("largest_gram_eigenvalue: lambda_max of D D^T through the smaller Gram matrix", "[linalg]") {
  Rng rng(5, 2);
  LargestEigenvalueWorkspace ws;
  for (const auto& [d, b] : std::vector<std::pair<Eigen::Index, Eigen::Index>>{
           {1, 1}, {1, 7}, {7, 1}, {30, 30}, {40, 12}, {12, 40}, {200, 89}}) {
    const Eigen::MatrixXd wide = standard_normal_matrix(rng, d, 3 * b);
    const auto D = wide.middleCols(b, b);
    const Eigen::MatrixXd DDt = D * D.transpose();
    const double expected = symmetric_eigenvalues(DDt).maxCoeff();
    const Eigen::MatrixXd DtD = D.transpose() * D;
    const double scale =
        std::max(DDt.cwiseAbs().rowwise().sum().maxCoeff(), DtD.cwiseAbs().rowwise().sum().maxCoeff());
    const double tolerance =
        (8 + double(std::min(d, b)) / 2) * std::numeric_limits<double>::epsilon() * scale;
    INFO("d = " << d << ", b = " << b << ", expected " << expected);
    CHECK(std::abs(largest_gram_eigenvalue(D, ws) - expected) <= tolerance);
    const Eigen::MatrixXd Dt = D.transpose();
    CHECK(std::abs(largest_gram_eigenvalue(Dt, ws) - expected) <= tolerance);
    CHECK((ws.lanczos_steps > 0 || ws.gram.rows() == std::min(d, b)));  // the Gram route: the smaller side
  }
}

// Both routes of largest_gram_eigenvalue, each where it is the one taken: a spiked block (an eigengap, as
// the algorithms' blocks of spiked data have) converges by Lanczos within its step budget; a block of pure
// noise does not (Lanczos stops and the Gram route follows), nor is it tried where the budget is short. Each
// agrees with the full solver to the rounding level above, in both orientations and from a column block of a
// wider matrix.
TEST_CASE("largest_gram_eigenvalue: Lanczos on a spiked block, the Gram route where Lanczos falls short",
          "[linalg]") {
  Rng rng(8, 1);
  LargestEigenvalueWorkspace ws;
  struct Block {
    Eigen::Index d, b;
    double spike;
    bool lanczos;
  };
  for (const Block& block :
       {Block{200, 135, 2.0, true}, Block{100, 200, 2.0, true}, Block{200, 2500, 2.0, true},
        Block{200, 2500, 0.0, false}, Block{60, 300, 3.0, false}, Block{50, 60, 0.0, false}}) {
    const auto [d, b, spike, lanczos] = block;
    Eigen::MatrixXd wide = standard_normal_matrix(rng, d, 2 * b);
    const Eigen::VectorXd u = Eigen::VectorXd::LinSpaced(d, 1.0, 2.0).normalized();
    wide += spike * u * standard_normal_matrix(rng, 1, 2 * b);  // each column: noise + spike z_l u
    const auto D = wide.rightCols(b);
    const Eigen::MatrixXd Dt = D.transpose();
    const Eigen::MatrixXd DtD = D.transpose() * D;
    const double expected = symmetric_eigenvalues(DtD).maxCoeff();
    const double tolerance = (8 + double(std::min(d, b)) / 2) * std::numeric_limits<double>::epsilon() *
                             DtD.cwiseAbs().rowwise().sum().maxCoeff();
    INFO("d = " << d << ", b = " << b << ", spike " << spike << ", expected " << expected);
    for (const Eigen::Ref<const Eigen::MatrixXd>& M :
         {Eigen::Ref<const Eigen::MatrixXd>(D), Eigen::Ref<const Eigen::MatrixXd>(Dt)}) {
      CHECK(std::abs(largest_gram_eigenvalue(M, ws) - expected) <= tolerance);
      CHECK((ws.lanczos_steps > 0) == lanczos);
    }
  }
}

TEST_CASE("add_scaled: the bits of Eigen's y += a x at every length and alignment", "[linalg]") {
  // The vector clone must round the product and then the sum, as Eigen's two-lane code does: a fused
  // multiply-add rounds once and differs in the last bit for about half of these random entries. Lengths
  // 0..41 and an odd offset cover the vector body, its tail and unaligned starts.
  Rng rng(11, 3);
  for (Eigen::Index n = 0; n <= 41; ++n)
    for (const Eigen::Index offset : {0, 1}) {
      const Eigen::VectorXd x = standard_normal_vector(rng, n + offset),
                            y0 = standard_normal_vector(rng, n + offset);
      const double a = 0.1 + uniform01(rng);
      Eigen::VectorXd expected = y0, got = y0;
      expected.tail(n) += a * x.tail(n);
      add_scaled(got.data() + offset, a, x.data() + offset, n);
      INFO("n = " << n << ", offset " << offset);
      bool same = true;
      for (Eigen::Index i = 0; i < n + offset; ++i)
        same = same && std::bit_cast<std::uint64_t>(got[i]) == std::bit_cast<std::uint64_t>(expected[i]);
      CHECK(same);
    }
}
