#include "algorithms/mutants/breaks.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/sample_matrices.hpp"

namespace {

dpb::alg::Ledger scratch;  // where the statistics record themselves; the tests read their values

using namespace dpb;

// Three records in d = 2 (columns): squared norms 2, 9, 0.5; largest |entry| 3.
Eigen::MatrixXd records() {
  Eigen::MatrixXd X(2, 3);
  X << 1, -3, 0.5,  //
      1, 0, -0.5;
  return X;
}

}  // namespace

TEST_CASE("inverted_epsilon hands the mechanism 1/eps and keeps delta and neighbours", "[mutants]") {
  const alg::Privacy broken = alg::mutants::inverted_epsilon({0.25, 1e-5, alg::Neighbours::add_remove});
  CHECK(broken.epsilon == 4);
  CHECK(broken.delta == 1e-5);
  CHECK(broken.neighbours == alg::Neighbours::add_remove);
  CHECK_THROWS_AS(alg::mutants::inverted_epsilon({0, 0, alg::Neighbours::replace}), InvalidArgument);
}

TEST_CASE("the data-derived bounds are the plain statistics of the records", "[mutants]") {
  const Eigen::MatrixXd X = records();
  alg::Input in;
  in.X = &X;
  CHECK(alg::mutants::max_squared_norm(in, "test", scratch) == 9);
  CHECK(alg::mutants::max_abs_entry(in, "test", scratch) == 3);
  // Centred records (2/3, 5/6), (-10/3, -1/6), (1/6, -4/6); covariance (1/3) sum c c^T.
  Eigen::MatrixXd centred = X.colwise() - X.rowwise().mean();
  const Eigen::MatrixXd covariance = centred * centred.transpose() / 3.0;
  const double top = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(covariance).eigenvalues()(1);
  CHECK(alg::mutants::top_sample_covariance_eigenvalue(in, "test", scratch) == Approx(top).epsilon(1e-12));
  const core::VectorSamples samples(X);
  alg::Input matrices;
  matrices.samples = &samples;
  // ||x x^T||_F = ||x||^2.
  CHECK(alg::mutants::max_sample_matrix_frobenius(matrices, "test", scratch) == Approx(9).epsilon(1e-12));
}

TEST_CASE("the data-derived bounds refuse an input without the data they read", "[mutants]") {
  const alg::Input empty;
  CHECK_THROWS_AS(alg::mutants::max_squared_norm(empty, "test", scratch), InvalidArgument);
  CHECK_THROWS_AS(alg::mutants::max_abs_entry(empty, "test", scratch), InvalidArgument);
  CHECK_THROWS_AS(alg::mutants::top_sample_covariance_eigenvalue(empty, "test", scratch), InvalidArgument);
  CHECK_THROWS_AS(alg::mutants::max_sample_matrix_frobenius(empty, "test", scratch), InvalidArgument);
}
