#include "algorithms/mechanisms/clipping.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

using namespace dpb::alg;

TEST_CASE("l2_clip scales onto the ball only when the norm exceeds R", "[mechanisms]") {
  Eigen::VectorXd y(2);
  y << 3, 4;  // norm 5
  CHECK_FALSE(l2_clip(y, 10.0));
  CHECK(y == Eigen::Vector2d(3, 4));
  CHECK_FALSE(l2_clip(y, 5.0));  // on the boundary: unchanged
  CHECK(y == Eigen::Vector2d(3, 4));
  CHECK(l2_clip(y, 1.0));
  CHECK(y(0) == Approx(0.6).epsilon(1e-15));
  CHECK(y(1) == Approx(0.8).epsilon(1e-15));
  Eigen::VectorXd zero = Eigen::VectorXd::Zero(3);
  CHECK_FALSE(l2_clip(zero, 1.0));
  CHECK_FALSE(l2_clip(y, std::numeric_limits<double>::infinity()));

  // A column of a matrix, in place; the other column is untouched.
  Eigen::MatrixXd m(2, 2);
  m << 3, 1, 4, 1;
  CHECK(l2_clip(m.col(0), 2.5));
  CHECK(m(0, 0) == Approx(1.5).epsilon(1e-15));
  CHECK(m(1, 0) == Approx(2.0).epsilon(1e-15));
  CHECK(m.col(1) == Eigen::Vector2d(1, 1));

  // Entries whose squares overflow still clip correctly.
  Eigen::VectorXd huge(2);
  huge << 3e200, 4e200;
  CHECK(l2_clip(huge, 5.0));
  CHECK(huge(0) == Approx(3.0).epsilon(1e-14));
  CHECK(huge(1) == Approx(4.0).epsilon(1e-14));

  Eigen::VectorXd bad(2);
  bad << 1, std::nan("");
  CHECK_THROWS_AS(l2_clip(bad, 1.0), dpb::InvalidArgument);
  CHECK(bad(0) == 1.0);  // left unchanged
  bad << 1, std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(l2_clip(bad, 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(l2_clip(y, 0.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(l2_clip(y, std::nan("")), dpb::InvalidArgument);
}

namespace {

// clip(y, R) and clip(y, R, ||y||) on copies of y: the same answer, the same bits.
template <class Dense, class Clip>
void same_with_norm_given(Dense y, double radius, Clip clip) {
  Dense given = y;
  const bool clipped = clip(y, radius);
  CHECK(clip(given, radius, given.norm()) == clipped);
  CHECK(given == y);  // bit for bit
}

}  // namespace

TEST_CASE(
    "l2_clip and frobenius_clip with the norm measured by the caller: the same result and the same refusals",
    "[mechanisms]") {
  const auto l2 = [](Eigen::VectorXd& y, auto... args) { return l2_clip(y, args...); };
  const auto frobenius = [](Eigen::MatrixXd& y, auto... args) { return frobenius_clip(y, args...); };
  same_with_norm_given(Eigen::VectorXd(Eigen::Vector3d(0.3, -0.7, 1.1)), 10.0, l2);  // inside
  same_with_norm_given(Eigen::VectorXd(Eigen::Vector3d(0.3, -0.7, 1.1)), 0.9,
                       l2);  // clipped (an inexact scale)
  same_with_norm_given(Eigen::VectorXd(Eigen::Vector2d(3e200, 4e200)), 5.0,
                       l2);  // overflow: rescaled, measured again
  Eigen::MatrixXd m(2, 2);
  m << 0.3, -0.7, 1.1, 0.2;
  same_with_norm_given(m, 10.0, frobenius);
  same_with_norm_given(m, 0.9, frobenius);
  same_with_norm_given(Eigen::MatrixXd(m * 1e308), 5.0, frobenius);
  Eigen::VectorXd y = Eigen::Vector2d(0, 0), bad = Eigen::Vector2d(1, std::nan(""));
  CHECK_THROWS_AS(l2_clip(y, 0.0, 0.0), dpb::InvalidArgument);  // a zero radius, even for a zero vector
  CHECK_THROWS_AS(l2_clip(bad, 1.0, bad.norm()), dpb::InvalidArgument);
  Eigen::MatrixXd bad_matrix = bad;
  CHECK_THROWS_AS(frobenius_clip(bad_matrix, 1.0, bad_matrix.norm()), dpb::InvalidArgument);
}

TEST_CASE("frobenius_clip uses the Frobenius norm of the whole matrix", "[mechanisms]") {
  Eigen::MatrixXd y(2, 2);
  // ||y||_F = sqrt(1 + 4 + 4 + 16) = 5 but ||y||_op = (3 + sqrt 41)/2 = 4.70: at R = 4.8 only a
  // Frobenius clip (not an operator-norm one) acts.
  y << 1, 2, 2, -4;
  CHECK(frobenius_clip(y, 4.8));
  CHECK(y.norm() == Approx(4.8).epsilon(1e-15));
  CHECK(y(1, 1) == Approx(-4 * 4.8 / 5).epsilon(1e-15));
  CHECK_FALSE(frobenius_clip(y, 4.8));
  CHECK_THROWS_AS(frobenius_clip(y, -1.0), dpb::InvalidArgument);
}

TEST_CASE("truncate_coordinates is Trunc_R and counts the truncated entries", "[mechanisms]") {
  Eigen::VectorXd x(6);
  x << -3, 0.5, 2, -0.2, 2.5, -2;
  CHECK(truncate_coordinates(x, 2.0) == 2);  // |x_j| = R is not truncated
  Eigen::VectorXd expected(6);
  expected << -2, 0.5, 2, -0.2, 2, -2;
  CHECK(x == expected);
  CHECK(truncate_coordinates(x, 2.0) == 0);

  Eigen::MatrixXd m(2, 3);
  m << 10, -10, 0, std::numeric_limits<double>::infinity(), 1, -0.5;
  CHECK(truncate_coordinates(m, 1.0) == 3);
  Eigen::MatrixXd m_expected(2, 3);
  m_expected << 1, -1, 0, 1, 1, -0.5;
  CHECK(m == m_expected);

  Eigen::VectorXd bad(2);
  bad << 5, std::nan("");
  CHECK_THROWS_AS(truncate_coordinates(bad, 1.0), dpb::InvalidArgument);
  CHECK(bad(0) == 5.0);  // left unchanged
  CHECK_THROWS_AS(truncate_coordinates(x, 0.0), dpb::InvalidArgument);
}

TEST_CASE("l1_clip uses the l1 norm, not the Euclidean one", "[mechanisms]") {
  Eigen::VectorXd y(2);
  y << 3, -4;  // ||y||_1 = 7, ||y||_2 = 5: at R = 6 only an l1 clip acts
  CHECK(l1_clip(y, 6.0));
  CHECK(y(0) == Approx(18.0 / 7).epsilon(1e-15));
  CHECK(y(1) == Approx(-24.0 / 7).epsilon(1e-15));
  CHECK(y.lpNorm<1>() == Approx(6.0).epsilon(1e-15));
  CHECK_FALSE(l1_clip(y, 6.0));  // on the boundary: unchanged

  Eigen::VectorXd huge(2);  // |y_0| + |y_1| overflows; the clip still lands on the sphere
  huge << 1e308, -1e308;
  CHECK(l1_clip(huge, 2.0));
  CHECK(huge(0) == Approx(1.0).epsilon(1e-14));
  CHECK(huge(1) == Approx(-1.0).epsilon(1e-14));

  Eigen::VectorXd bad(2);
  bad << 1, std::nan("");
  CHECK_THROWS_AS(l1_clip(bad, 1.0), dpb::InvalidArgument);
  CHECK(bad(0) == 1.0);
}
