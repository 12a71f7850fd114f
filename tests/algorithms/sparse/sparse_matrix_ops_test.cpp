#include "algorithms/sparse/sparse_matrix_ops.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/samplers.hpp"

using namespace dpb::alg;
using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

TEST_CASE("T_tau keeps |c| >= tau (non-strict, diagonal included) and zeroes the rest", "[kumar2025]") {
  MatrixXd M(2, 3);
  M << 0.5, -0.5, 0.49, 2.0, -0.1, 0.0;
  MatrixXd expected(2, 3);
  expected << 0.5, -0.5, 0.0, 2.0, 0.0, 0.0;
  CHECK(hard_threshold(M, 0.5) == expected);
  CHECK(hard_threshold(M, 0.0) == M);  // tau = 0 keeps every entry, zeros stay zero
  CHECK(hard_threshold(M, 3.0) == MatrixXd::Zero(2, 3));
  CHECK_THROWS_AS(hard_threshold(M, -1.0), dpb::InvalidArgument);
  M(0, 0) = std::nan("");
  CHECK_THROWS_AS(hard_threshold(M, 0.1), dpb::InvalidArgument);
}

TEST_CASE("top_k keeps the k largest magnitudes, ties go to the lower index and are flagged", "[kumar2025]") {
  VectorXd v(5);
  v << 1.0, -3.0, 2.0, -2.0, 0.5;
  bool tie = true;
  CHECK(top_k_support(v, 2, &tie) == std::vector<Index>{1, 2});  // |-3|, then |2| beats |-2| by index
  CHECK(tie);                                                    // 2 and -2 tie at the cutoff
  CHECK(top_k_support(v, 3, &tie) == std::vector<Index>{1, 2, 3});
  CHECK_FALSE(tie);  // the 4th magnitude (1) differs from the 3rd (2)
  VectorXd expected(5);
  expected << 0, -3, 2, 0, 0;
  CHECK(top_k(v, 2) == expected);
  CHECK(top_k(v, 5) == v);
  CHECK_THROWS_AS(top_k(v, 0), dpb::InvalidArgument);
  CHECK_THROWS_AS(top_k(v, 6), dpb::InvalidArgument);
}

TEST_CASE("top_{k^2} acts on all entries jointly with (row, column) tie-breaking", "[kumar2025]") {
  MatrixXd M(2, 2);
  M << 1.0, -4.0, 4.0, 0.5;
  TopEntries one = top_entries(M, 1);
  MatrixXd expected = MatrixXd::Zero(2, 2);
  expected(0, 1) = -4.0;  // (0,1) precedes (1,0) in row-major order
  CHECK(one.kept == expected);
  CHECK(one.tie_at_cutoff);
  TopEntries three = top_entries(M, 3);
  expected << 1.0, -4.0, 4.0, 0.0;
  CHECK(three.kept == expected);
  CHECK_FALSE(three.tie_at_cutoff);
  CHECK(top_entries(M, 4).kept == M);
  CHECK_THROWS_AS(top_entries(M, 5), dpb::InvalidArgument);
}

TEST_CASE("k-RCS counts nonzeros in every row and every column", "[kumar2025]") {
  MatrixXd M(3, 3);
  M << 1, 1, 0, 0, 1, 0, 0, 1, 0;  // rows have <= 2 nonzeros, column 1 has 3
  CHECK_FALSE(is_k_rcs(M, 2));
  CHECK(is_k_rcs(M, 3));
  CHECK(is_k_rcs(MatrixXd::Identity(4, 4), 1));
  CHECK(is_k_rcs(MatrixXd::Zero(3, 3), 1));
  CHECK_THROWS_AS(is_k_rcs(M, 0), dpb::InvalidArgument);
}

TEST_CASE("P_G keeps the diagonal and the edges (either orientation), zeroes the rest", "[kumar2025]") {
  MatrixXd M(3, 3);
  M << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  MatrixXd expected(3, 3);
  expected << 1, 0, 3, 0, 5, 0, 7, 0, 9;
  CHECK(graph_projection(M, {{2, 0}}) == expected);
  CHECK(graph_projection(M, {}) == MatrixXd(M.diagonal().asDiagonal()));
  // P_G is linear: P_G(aA + B) = a P_G(A) + P_G(B).
  const MatrixXd B = MatrixXd::Ones(3, 3);
  CHECK(graph_projection(2 * M + B, {{0, 1}}) ==
        2 * graph_projection(M, {{0, 1}}) + graph_projection(B, {{0, 1}}));
  CHECK_THROWS_AS(graph_projection(M, {{0, 3}}), dpb::InvalidArgument);
  CHECK_THROWS_AS(graph_projection(MatrixXd::Ones(2, 3), {}), dpb::InvalidArgument);
}

TEST_CASE("max-norm distance, friend counts with their early exit, and the relative gap", "[kumar2025]") {
  MatrixXd A = MatrixXd::Zero(2, 2), B = MatrixXd::Zero(2, 2);
  B(1, 0) = -0.3;
  CHECK(max_abs_difference(A, B) == Approx(0.3));
  CHECK(friend_counts({A, B}, 0.3) ==
        Eigen::Vector2d(2, 2));  // non-strict, as the friend test of Alg 2 line 8
  CHECK(friend_counts({A, B}, 0.29) == Eigen::Vector2d(1, 1));  // each matrix is its own friend
  // Chunks of 64 entries: one entry outside (or NaN) in any chunk, the last partial one included, fails.
  const MatrixXd C = MatrixXd::Zero(13, 11);
  for (const Eigen::Index at : {Eigen::Index{0}, Eigen::Index{63}, Eigen::Index{64}, Eigen::Index{142}}) {
    for (const double v : {0.31, -0.31, std::nan("")}) {
      MatrixXd D = MatrixXd::Constant(13, 11, 0.3);
      D(at) = v;
      INFO("entry " << at << " = " << v);
      // C and E are friends; D, 0.3 from C but for its odd entry and 0.35 from E, is nobody's.
      const MatrixXd E = MatrixXd::Constant(13, 11, -0.05);
      CHECK(friend_counts({C, D, E}, 0.3) == Eigen::Vector3d(2, 1, 2));
    }
  }
  CHECK(friend_counts({C, MatrixXd::Constant(13, 11, -0.3)}, 0.3) == Eigen::Vector2d(2, 2));
  CHECK_THROWS_AS(friend_counts({C, MatrixXd::Zero(11, 13)}, 0.3), dpb::InvalidArgument);
  MatrixXd S(2, 2);
  S << 2, 0, 0, 1;
  const TopTwoEigenvalues ev = top_two_eigenvalues(S);
  CHECK(ev.lambda1 == Approx(2));
  CHECK(ev.relative_gap() == Approx(0.5));
  CHECK_FALSE(top_two_eigenvalues(-S).gap_defined());  // lambda_1 <= 0: gamma undefined (A24)
}

namespace {

// Every pair, every entry: the friend test of Alg 2 line 8 as printed (j = i counts, even for a NaN).
VectorXd friend_counts_by_definition(const std::vector<MatrixXd>& matrices, double radius) {
  VectorXd f = VectorXd::Zero(Index(matrices.size()));
  for (std::size_t i = 0; i < matrices.size(); ++i)
    for (std::size_t j = 0; j < matrices.size(); ++j)
      f[Index(i)] += i == j || ((matrices[i] - matrices[j]).cwiseAbs().array() <= radius).all() ? 1 : 0;
  return f;
}

}  // namespace

// From 64 matrices the counts come from the pairs each entry parts (sorted values), not from every pair: they
// must be the same counts, at the radius's edge (values on a grid of quarters, so differences are exact),
// with outliers, with most pairs apart (past the budget: every pair compared) and with NaN or an infinity.
TEST_CASE("friend counts of many matrices are those of every pair compared", "[kumar2025]") {
  dpb::core::Rng rng(5, 3);
  for (const std::size_t m : {std::size_t{64}, std::size_t{200}}) {
    for (const double spread : {0.0, 0.25, 1.0, 8.0}) {
      std::vector<MatrixXd> matrices;
      for (std::size_t i = 0; i < m; ++i) {
        MatrixXd M(3, 2);
        for (Index l = 0; l < M.size(); ++l)  // quarters in [-spread, spread]
          M(l) = spread > 0 ? std::round(dpb::core::uniform(rng, -spread, spread) * 4) / 4 : 0.0;
        matrices.push_back(M);
      }
      matrices[7](4) += 3;      // an outlier in one entry
      matrices[m - 1](0) -= 2;  // another, in another entry
      INFO("m = " << m << ", spread " << spread);
      for (const double radius : {0.0, 0.25, 0.5, 1.0, 2.0})
        CHECK(friend_counts(matrices, radius) == friend_counts_by_definition(matrices, radius));
      for (const double odd : {std::nan(""), std::numeric_limits<double>::infinity()}) {
        std::vector<MatrixXd> with_odd = matrices;
        with_odd[3](2) = odd;
        with_odd[9](2) = odd;  // two infinities are not friends either: their difference is NaN
        CHECK(friend_counts(with_odd, 0.5) == friend_counts_by_definition(with_odd, 0.5));
      }
    }
  }
}
