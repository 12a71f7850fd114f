#include "lowerbounds/constructions/kumar2025_covariances.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"

using dpb::core::Rng;
using namespace dpb::lower;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

Eigen::Index max_row_nnz(const MatrixXd& M) {
  return (M.array() != 0).cast<Eigen::Index>().rowwise().sum().maxCoeff();
}

VectorXd ascending_eigenvalues(const MatrixXd& S) {
  return dpb::core::symmetric_eigenvalues(S);
}

}  // namespace

TEST_CASE("Lemma 19: Sigma_star has unit diagonal, k-RCS, lambda_1 = 2 with the explicit v_1, lambda_min = 0",
          "[kumar2025][constructions]") {
  const int d = 24, k = 6;  // g = 8, h = 2: |L| = 16 of degree 2, |R| = 8 of degree 4
  Rng rng(19, 0);
  const Lemma19Construction c = lemma19_construction(d, k, {}, rng);
  const double weight = std::sqrt(2.0) / (k - 2);
  CHECK(c.sigma_star.diagonal().isOnes(0));
  const MatrixXd off = c.sigma_star - MatrixXd::Identity(d, d);
  CHECK(((off.array() == 0) || (off.array() == weight)).all());
  CHECK(max_row_nnz(c.sigma_star) == k - 1);  // right vertices: 1 + 2h = k - 1 nonzeros
  const VectorXd eig = ascending_eigenvalues(c.sigma_star);
  CHECK(eig[d - 1] == Approx(2).epsilon(1e-12));
  CHECK(std::abs(eig[0]) < 1e-12);  // PSD and singular (bipartite spectrum is symmetric)
  CHECK(c.v1.norm() == Approx(1).epsilon(1e-14));
  CHECK((c.sigma_star * c.v1 - 2 * c.v1).norm() < 1e-12);
  CHECK(eig[d - 2] == Approx(c.lambda2).epsilon(1e-10));
  // The accepted graph is within slack of Ramanujan: lambda_2 <= 1 + (ram + slack) sqrt(2)/(k-2).
  CHECK(c.lambda2 <= 1 + (c.graph.spectrum.ramanujan + GraphAcceptance{}.slack) * weight);
  CHECK(c.gamma0 > 0);
  CHECK(lemma19_ramanujan_gap(6) == Approx(0.0170).margin(5e-5));  // spec §5.2 item 4
  CHECK(lemma19_ramanujan_gap(8) == Approx(0.0698).margin(5e-5));
  CHECK_THROWS_WITH(lemma19_construction(25, 6, {}, rng), Catch::Contains("3 | d"));
  CHECK_THROWS_AS(lemma19_construction(24, 7, {}, rng), dpb::InvalidArgument);
}

TEST_CASE("Lemma 19 family: Sigma_x = Pi Sigma_star Pi^T has eigenvector v_x, Eq. 33 separation",
          "[kumar2025][constructions]") {
  const int d = 24, k = 6;
  Rng rng(19, 1);
  const Lemma19Construction c = lemma19_construction(d, k, {}, rng);
  Codeword x(d, 0), y(d, 0);
  for (int i = 0; i < d / 3; ++i) x[3 * i] = 1;      // ones at 0, 3, 6, ...
  for (int i = 0; i < d / 3; ++i) y[3 * i + 1] = 1;  // ones at 1, 4, 7, ...: Hamming distance 2d/3
  for (const Codeword& w : {x, y}) {
    const MatrixXd S = lemma19_family_member(c, w);
    const VectorXd v = lemma19_family_eigenvector(w);
    CHECK((S * v - 2 * v).norm() < 1e-12);
    CHECK(ascending_eigenvalues(S)[d - 1] == Approx(2).epsilon(1e-12));
    CHECK(max_row_nnz(S) <= k);
  }
  const double step = std::sqrt(3.0 / (2 * d)) - std::sqrt(3.0 / (4 * d));
  const VectorXd vx = lemma19_family_eigenvector(x), vy = lemma19_family_eigenvector(y);
  CHECK((vx - vy).squaredNorm() == Approx(hamming_distance(x, y) * step * step).epsilon(1e-12));
  // P_x's samples: unit-variance coordinates (Sigma_x has a unit diagonal) and nothing along Sigma_x's null
  // space (lambda_min = 0). 20000 samples: Var(x_i^2) = 2, six standard errors = 0.06.
  const MatrixXd samples = lemma19_family_samples(c, x, 20000, rng);
  const VectorXd variances = samples.rowwise().squaredNorm() / 20000.0;
  CHECK(((variances.array() - 1).abs() < 6 * std::sqrt(2.0 / 20000)).all());
  const dpb::core::EigenPairs eig = dpb::core::symmetric_eigenpairs(lemma19_family_member(c, x));
  CHECK((eig.vectors.col(0).transpose() * samples).cwiseAbs().maxCoeff() < 1e-10);
  Codeword wrong(d, 0);
  wrong[0] = 1;
  CHECK_THROWS_WITH(lemma19_family_member(c, wrong), Catch::Contains("weight"));
}

TEST_CASE("Thm 4 decoder: every estimate within sin^2 <= 1/400 of v_x decodes to x, whatever its sign",
          "[kumar2025][constructions]") {
  const int d = 24;
  const BinaryCode code = greedy_code(d, d / 3, d / 6, GreedyOrder::lexicographic, 0, 40);
  Rng rng(20, 0);
  for (std::size_t j = 0; j < code.words.size(); ++j) {
    const VectorXd v = lemma19_family_eigenvector(code.words[j]);
    // A unit vector at angle asin(1/20) from v (sin^2 = 1/400, the edge of Thm 4's accuracy), flipped and
    // scaled.
    VectorXd w = dpb::core::standard_normal_vector(rng, d);
    w = (w - w.dot(v) * v).normalized();
    const double sin = 1.0 / 20;
    const VectorXd estimate = -3 * (std::sqrt(1 - sin * sin) * v + sin * w);
    CHECK(lemma19_decode(estimate, code) == j);
  }
  CHECK(lemma19_decode(VectorXd::Zero(d), code) < code.words.size());  // zero estimate: e_1 decoded
  CHECK_THROWS_WITH(lemma19_decode(VectorXd::Ones(d + 1), code), Catch::Contains("length"));
}

TEST_CASE("Lemma 22: Sigma_s has k nonzeros per row, lambda_1 = 2 at s/sqrt(d), lambda_min = 0",
          "[kumar2025][constructions]") {
  const int d = 20, k = 6;  // 5-regular bipartite on 10 + 10
  Rng rng(22, 0);
  const Lemma22Construction c = lemma22_construction(d, k, {}, rng);
  VectorXd s(d);
  for (int i = 0; i < d; ++i) s[i] = dpb::core::rademacher(rng);
  const MatrixXd S = lemma22_covariance(c, s);
  CHECK(max_row_nnz(S) == k);
  CHECK((S.cwiseAbs().array() <= 1).all());
  const VectorXd eig = ascending_eigenvalues(S);
  CHECK(eig[d - 1] == Approx(2).epsilon(1e-12));
  CHECK(std::abs(eig[0]) < 1e-12);
  const VectorXd v = s / std::sqrt(double(d));
  CHECK((S * v - 2 * v).norm() < 1e-12);
  CHECK(eig[d - 2] == Approx(c.lambda2).epsilon(1e-10));
  CHECK(c.lambda2 <= 1 + (2 * std::sqrt(k - 2.0) + GraphAcceptance{}.slack) / (k - 1));
  CHECK(lemma22_ramanujan_gap(6) == Approx(0.100).margin(5e-4));  // spec §5.3 item 3
  CHECK(lemma22_ramanujan_gap(10) == Approx(0.186).margin(5e-4));
  CHECK_THROWS_WITH(lemma22_covariance(c, VectorXd::Ones(d - 1)), Catch::Contains("+-1"));
  CHECK_THROWS_WITH(lemma22_construction(8, 6, {}, rng), Catch::Contains("d/2 >= k - 1"));
}
