#include "lowerbounds/constructions/padded_subcube.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/metrics.hpp"

using dpb::core::Rng;
using namespace dpb::lower;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

const int d = 20, k = 6;  // r = 5, m = 10

PaddedSubcube cube_for_tests() {
  Rng rng(6, 0);
  return padded_subcube(d, k, {}, rng);
}

VectorXd alternating(int m) {
  VectorXd s(m);
  for (int i = 0; i < m; ++i) s[i] = i % 2 ? -1 : 1;
  return s;
}

}  // namespace

TEST_CASE(
    "padded subcube: s_bar pads the first d/2 coordinates, v_s = s_bar/sqrt(d) is Sigma_s's top eigenvector",
    "[kumar2025][constructions]") {
  const PaddedSubcube cube = cube_for_tests();
  CHECK(cube.m == d / 2);
  const VectorXd s = alternating(cube.m);
  const VectorXd s_bar = cube.padded(s);
  CHECK(s_bar.head(d / 2).isOnes(0));
  CHECK(s_bar.tail(d / 2) == s);
  const MatrixXd S = cube.covariance(s);
  const VectorXd v = cube.eigenvector(s);
  CHECK((S * v - 2 * v).norm() < 1e-12);
  CHECK_THROWS_WITH(cube.padded(VectorXd::Ones(cube.m + 1)), Catch::Contains("length m"));
}

TEST_CASE("Lemma 24: sin^2(v_s, v_s') = (4t/d)(1 - t/d), measured separation tau = 1/d",
          "[kumar2025][constructions]") {
  const PaddedSubcube cube = cube_for_tests();
  const VectorXd s = VectorXd::Ones(cube.m);
  for (int t : {1, 4, cube.m}) {
    VectorXd flipped = s;
    flipped.head(t).setConstant(-1);
    const double expected = 4.0 * t / d * (1 - double(t) / d);
    CHECK(dpb::core::sin2_angle(cube.eigenvector(s), cube.eigenvector(flipped)) ==
          Approx(expected).epsilon(1e-12));
  }
  CHECK(measured_separation(cube) == Approx(1.0 / d).epsilon(1e-12));  // attained at t = m = d/2
}

TEST_CASE("Definition 5: edge-spike samples have covariance Sigma_s (CLT tolerance)",
          "[kumar2025][constructions]") {
  const PaddedSubcube cube = cube_for_tests();
  const VectorXd s = alternating(cube.m);
  const MatrixXd sigma = cube.covariance(s);
  Rng rng(7, 0);
  const Eigen::Index n = 40000;
  const MatrixXd X = sample_edge_spike(cube, s, n, rng);
  CHECK((X.array() != 0).colwise().count().maxCoeff() == 2);  // only U and V are nonzero
  const MatrixXd second = dpb::core::second_moment(X);
  // x_i x_j = c^2 g^2 s_i s_j 1{(U,V) covers {i,j}} with c^2 = d/2: Var = 3 c^4 P(cover) - Sigma_ij^2, with
  // P = 2/d on the diagonal and 2/(r d) on an edge. Six standard errors per entry: a correct sampler fails
  // one of the 20 + 100 nonzero entries with probability < 1e-6; a missing c or wrong sign is off by >> that.
  const double c2 = d / 2.0, r = k - 1;
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) {
      if (sigma(i, j) == 0) {
        CHECK(second(i, j) == 0);  // non-edges are exactly zero
        continue;
      }
      const double cover = i == j ? 2.0 / d : 2.0 / (r * d);
      const double sd = std::sqrt((3 * c2 * c2 * cover - sigma(i, j) * sigma(i, j)) / double(n));
      CHECK(std::abs(second(i, j) - sigma(i, j)) < 6 * sd);
    }
}

TEST_CASE("Lemma 25: the coupling differs exactly on samples touching coordinate i, about 2n/d of them",
          "[kumar2025][constructions]") {
  const PaddedSubcube cube = cube_for_tests();
  for (int i = 0; i < cube.m; ++i)
    CHECK(coordinate_touch_probability(cube, i) == Approx(2.0 / d).epsilon(1e-15));
  Rng rng(8, 0);
  const Eigen::Index n = 20000;
  const int i = 3;
  const CoupledDatasets pair = couple_edge_spike(cube, alternating(cube.m), i, n, rng);
  const Eigen::Index coordinate = d / 2 + i;
  int touching = 0;
  for (Eigen::Index j = 0; j < n; ++j) {
    const bool touches = pair.plus(coordinate, j) != 0;
    touching += touches;
    CHECK((pair.plus.col(j) != pair.minus.col(j)) == touches);
  }
  CHECK(pair.differing == touching);
  // differing ~ Binomial(n, 2/d): mean 2000, sd sqrt(n p (1-p)) = 42.4; six sd.
  const double p = 2.0 / d;
  CHECK(std::abs(pair.differing - n * p) < 6 * std::sqrt(n * p * (1 - p)));
  CHECK_THROWS_WITH(couple_edge_spike(cube, alternating(cube.m), cube.m, n, rng), Catch::Contains("[0, m"));
}
