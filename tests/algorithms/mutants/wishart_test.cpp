#include "algorithms/mutants/wishart.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/linalg.hpp"

using namespace dpb;

TEST_CASE("wishart_scale is 3/(2 n eps) and refuses bad n or eps", "[mutants][wishart]") {
  CHECK(alg::mutants::wishart_scale(100, 0.5) == Approx(0.03).epsilon(1e-15));
  CHECK_THROWS_AS(alg::mutants::wishart_scale(0, 1), InvalidArgument);
  CHECK_THROWS_AS(alg::mutants::wishart_scale(10, 0), InvalidArgument);
  core::Rng rng(1, 1);
  CHECK_THROWS_AS(alg::mutants::wishart_noise(rng, 2, 3, -1), InvalidArgument);
}

TEST_CASE("Wishart noise is PSD with mean dof * scale * I", "[mutants][wishart]") {
  core::Rng rng(11, 2);
  const Eigen::Index d = 3, dof = 4;
  const double scale = 0.5;
  const int draws = 4000;
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(d, d);
  for (int i = 0; i < draws; ++i) {
    const Eigen::MatrixXd W = alg::mutants::wishart_noise(rng, d, dof, scale);
    CHECK(dpb::core::symmetric_eigenvalues(W).minCoeff() >= -1e-12);
    sum += W;
  }
  const Eigen::MatrixXd mean = sum / draws;
  // Var W_jj = 2 dof scale^2 = 2, Var W_ij = dof scale^2 = 1: the mean's sd is <= sqrt(2/4000) = 0.022;
  // 0.12 is more than 5 sd, so a correct sampler fails with probability < 1e-6 per entry.
  const Eigen::MatrixXd expected = dof * scale * Eigen::MatrixXd::Identity(d, d);
  CHECK((mean - expected).cwiseAbs().maxCoeff() < 0.12);
}

TEST_CASE("the Wishart release never falls below C in the Loewner order (why it is not DP)",
          "[mutants][wishart]") {
  core::Rng rng(5, 3);
  Eigen::MatrixXd C(2, 2);
  C << 0.3, 0.1, 0.1, 0.2;
  for (int i = 0; i < 200; ++i) {
    const Eigen::MatrixXd M = alg::mutants::wishart_release(C, 50, 1.0, rng);
    CHECK(dpb::core::symmetric_eigenvalues(M - C).minCoeff() >= -1e-12);
  }
}
