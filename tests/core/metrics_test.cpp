#include "core/metrics.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"

using dpb::InvalidArgument;
using namespace dpb::core;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kPi = std::acos(-1.0);

Eigen::Vector2d at_angle(double radians) { return {std::cos(radians), std::sin(radians)}; }

// Columns `first`, ..., `first + k - 1` of I_d.
Eigen::MatrixXd unit_frame(Eigen::Index d, Eigen::Index first, Eigen::Index k) {
  return Eigen::MatrixXd::Identity(d, d).middleCols(first, k);
}

NormSpec schatten(double q, bool normalize = false) { return {Norm::schatten, q, normalize}; }

}  // namespace

TEST_CASE("sin_angle: known angles in the plane", "[metrics]") {
  const Eigen::VectorXd e1 = at_angle(0);
  CHECK(sin_angle(e1, at_angle(kPi / 6)) == Approx(0.5).margin(1e-15));
  CHECK(sin2_angle(e1, at_angle(kPi / 3)) == Approx(0.75).margin(1e-15));
  CHECK(sin_angle(e1, at_angle(kPi / 2)) == Approx(1.0).margin(1e-15));
  CHECK(sin_angle(e1, at_angle(2 * kPi / 3)) == Approx(std::sqrt(3.0) / 2).margin(1e-15));
  CHECK(sin_angle(e1, e1) == 0.0);
  CHECK(sin_angle(e1, -e1) == 0.0);  // lines, not directions
}

TEST_CASE("sin_angle: sign and scale invariant, symmetric", "[metrics]") {
  const Eigen::Vector3d u(1, 2, -2), v(0.5, -1, 3);
  const double s = sin_angle(u, v);
  // |u x v| / (|u||v|) by hand: u x v = (4, -4, -2), |u x v| = 6, |u| = 3, |v| = sqrt(10.25).
  CHECK(s == Approx(6.0 / (3.0 * std::sqrt(10.25))).epsilon(1e-14));
  CHECK(sin_angle(-3.0 * u, 1e-4 * v) == Approx(s).epsilon(1e-14));
  CHECK(sin_angle(v, u) == Approx(s).epsilon(1e-14));
  CHECK(sin2_angle(u, -v) == Approx(s * s).epsilon(1e-14));
}

TEST_CASE("sin_angle: huge, tiny and nearly parallel vectors", "[metrics]") {
  // Norms 1e300 and 1e-300 would overflow / underflow if squared unscaled.
  CHECK(sin_angle(Eigen::Vector2d(1e300, 1e300), Eigen::Vector2d(1e-300, 0)) ==
        Approx(std::sqrt(0.5)).epsilon(1e-14));
  // sin = t / sqrt(1 + t^2) ~ 1e-9: sqrt(1 - cos^2) returns 0 or ~1e-8 here (cos rounds to within an
  // ulp of 1), the orthogonal-component formula keeps ~7 correct digits.
  const double t = 1e-9;
  CHECK(sin_angle(Eigen::Vector2d(1, 0), Eigen::Vector2d(1, t)) == Approx(t).epsilon(1e-6));
  CHECK(sin2_angle(Eigen::Vector2d(1, 0), Eigen::Vector2d(1, t)) == Approx(t * t).epsilon(1e-6));
}

TEST_CASE("sin_angle: invalid input throws InvalidArgument", "[metrics]") {
  const Eigen::Vector2d u(1, 0);
  CHECK_THROWS_AS(sin_angle(u, Eigen::Vector3d(1, 0, 0)), InvalidArgument);
  CHECK_THROWS_AS(sin_angle(u, Eigen::Vector2d::Zero()), InvalidArgument);
  CHECK_THROWS_AS(sin2_angle(Eigen::Vector2d::Zero(), u), InvalidArgument);
  CHECK_THROWS_AS(sin_angle(u, Eigen::Vector2d(std::nan(""), 1)), InvalidArgument);
  CHECK_THROWS_AS(sin_angle(u, Eigen::Vector2d(kInf, 1)), InvalidArgument);
}

TEST_CASE("schatten_norm: hand-computed values", "[metrics]") {
  const Eigen::Matrix2d D = Eigen::Vector2d(3, -4).asDiagonal();
  CHECK(schatten_norm(D, 1) == Approx(7).epsilon(1e-14));
  CHECK(schatten_norm(D, 2) == Approx(5).epsilon(1e-14));
  CHECK(schatten_norm(D, 3) == Approx(std::cbrt(27.0 + 64.0)).epsilon(1e-14));
  CHECK(schatten_norm(D, kInf) == Approx(4).epsilon(1e-14));
  CHECK(operator_norm(D) == Approx(4).epsilon(1e-14));
  CHECK(schatten_norm(D, 1e6) == Approx(4).epsilon(1e-5));  // q -> inf tends to the operator norm
  CHECK(schatten_norm(Eigen::Matrix3d::Zero(), 1) == 0.0);
  // Rotated: R diag(3, -4) R^T has the same norms.
  const Eigen::Matrix2d R = Eigen::Rotation2Dd(0.3).toRotationMatrix();
  const Eigen::Matrix2d S = R * D * R.transpose();
  CHECK(schatten_norm(S, 1) == Approx(7).epsilon(1e-13));
  CHECK(operator_norm(S) == Approx(4).epsilon(1e-13));
}

TEST_CASE("schatten_norm: non-symmetric and rectangular matrices use singular values", "[metrics]") {
  Eigen::Matrix2d N;
  N << 0, 2, 0, 0;  // eigenvalues 0, 0; singular values 2, 0
  CHECK(schatten_norm(N, 1) == Approx(2).epsilon(1e-14));
  CHECK(operator_norm(N) == Approx(2).epsilon(1e-14));
  Eigen::MatrixXd W(2, 3);
  W << 3, 0, 0, 0, -4, 0;
  CHECK(schatten_norm(W, 1) == Approx(7).epsilon(1e-14));
  CHECK(schatten_norm(W, 2) == Approx(5).epsilon(1e-14));
}

TEST_CASE("schatten_norm: no overflow or underflow at extreme scales", "[metrics]") {
  const Eigen::Matrix2d D = Eigen::Vector2d(3, -4).asDiagonal();
  CHECK(schatten_norm(1e300 * D, 2) == Approx(5e300).epsilon(1e-14));
  CHECK(schatten_norm(1e-300 * D, 3) == Approx(std::cbrt(91.0) * 1e-300).epsilon(1e-14));
  CHECK(matrix_norm(1e300 * D, {Norm::fro}) == Approx(5e300).epsilon(1e-14));
}

TEST_CASE("matrix_norm dispatches on the NormSpec", "[metrics]") {
  const Eigen::Matrix3d D = Eigen::Vector3d(1, -2, 2).asDiagonal();
  CHECK(matrix_norm(D, {Norm::op}) == Approx(2).epsilon(1e-14));
  CHECK(matrix_norm(D, {Norm::fro}) == Approx(3).epsilon(1e-14));
  CHECK(matrix_norm(D, schatten(1)) == Approx(5).epsilon(1e-14));
  CHECK(matrix_norm(D, schatten(kInf)) == Approx(2).epsilon(1e-14));
  // q is read only for Norm::schatten.
  CHECK(matrix_norm(D, {Norm::op, 1}) == Approx(2).epsilon(1e-14));
}

TEST_CASE("schatten_norm / matrix_norm: invalid input throws InvalidArgument", "[metrics]") {
  const Eigen::Matrix2d I = Eigen::Matrix2d::Identity();
  CHECK_THROWS_AS(schatten_norm(I, 0.5), InvalidArgument);
  CHECK_THROWS_AS(schatten_norm(I, std::nan("")), InvalidArgument);
  CHECK_THROWS_AS(matrix_norm(I, schatten(0.99)), InvalidArgument);
  Eigen::Matrix2d bad = I;
  bad(0, 1) = std::nan("");
  CHECK_THROWS_AS(schatten_norm(bad, 2), InvalidArgument);
  CHECK_THROWS_AS(matrix_norm(bad, {Norm::fro}), InvalidArgument);
}

TEST_CASE("projector_distance: unit vectors, ||uu^T - vv^T||_F^2 = 2 sin^2 and ||.||_op = sin", "[metrics]") {
  Rng rng(11, 0);
  for (int rep = 0; rep < 5; ++rep) {
    const Eigen::VectorXd u = unit_sphere(rng, 6), v = unit_sphere(rng, 6);
    const double s2 = sin2_angle(u, v);
    const Eigen::MatrixXd U = u, V = v;
    CHECK(std::pow(projector_distance(U, V, {Norm::fro}), 2) == Approx(2 * s2).epsilon(1e-12));
    CHECK(projector_distance(U, V, {Norm::op}) == Approx(std::sqrt(s2)).epsilon(1e-12));
    // The same identities on the explicitly formed d x d difference.
    const Eigen::MatrixXd diff = u * u.transpose() - v * v.transpose();
    CHECK(diff.squaredNorm() == Approx(2 * s2).epsilon(1e-12));
    CHECK(operator_norm(diff) == Approx(std::sqrt(s2)).epsilon(1e-12));
  }
}

TEST_CASE("projector_distance: orthogonal k-frames", "[metrics]") {
  for (Eigen::Index k : {1, 2, 3}) {
    const double r = static_cast<double>(k);
    const Eigen::MatrixXd Q1 = unit_frame(7, 0, k), Q2 = unit_frame(7, k, k);
    CHECK(projector_distance(Q1, Q2, {Norm::op}) == Approx(1).epsilon(1e-14));
    CHECK(projector_distance(Q1, Q2, {Norm::fro}) == Approx(std::sqrt(2 * r)).epsilon(1e-14));
    CHECK(projector_distance(Q1, Q2, schatten(1)) == Approx(2 * r).epsilon(1e-14));
    CHECK(projector_distance(Q1, Q2, schatten(3)) == Approx(std::cbrt(2 * r)).epsilon(1e-14));
    CHECK(projector_distance(Q1, Q2, schatten(kInf)) == Approx(1).epsilon(1e-14));
    // Divided by r^{1/q} (cai2024): op 1/r^0, fro sqrt(2r)/sqrt(r), S1 2r/r, S3 (2r)^{1/3}/r^{1/3}.
    CHECK(projector_distance(Q1, Q2, {Norm::op, 2, true}) == Approx(1).epsilon(1e-14));
    CHECK(projector_distance(Q1, Q2, {Norm::fro, 2, true}) == Approx(std::sqrt(2.0)).epsilon(1e-14));
    CHECK(projector_distance(Q1, Q2, schatten(1, true)) == Approx(2).epsilon(1e-14));
    CHECK(projector_distance(Q1, Q2, schatten(3, true)) == Approx(std::cbrt(2.0)).epsilon(1e-14));
  }
}

TEST_CASE("projector_distance: frames at known principal angles", "[metrics]") {
  // span(Q2) is span(Q1) = span(e1, e2) tilted by a towards e3 and by b towards e4.
  const double a = 0.3, b = 1.1;
  const Eigen::MatrixXd Q1 = unit_frame(5, 0, 2);
  Eigen::MatrixXd Q2 = Eigen::MatrixXd::Zero(5, 2);
  Q2(0, 0) = std::cos(a), Q2(2, 0) = std::sin(a);
  Q2(1, 1) = std::cos(b), Q2(3, 1) = std::sin(b);
  const double sa = std::sin(a), sb = std::sin(b);
  CHECK(projector_distance(Q1, Q2, {Norm::op}) == Approx(sb).epsilon(1e-14));
  CHECK(projector_distance(Q1, Q2, {Norm::fro}) == Approx(std::sqrt(2 * (sa * sa + sb * sb))).epsilon(1e-14));
  CHECK(projector_distance(Q1, Q2, schatten(1)) == Approx(2 * (sa + sb)).epsilon(1e-14));
  CHECK(projector_distance(Q1, Q2, schatten(3)) ==
        Approx(std::cbrt(2 * (sa * sa * sa + sb * sb * sb))).epsilon(1e-14));
  CHECK(projector_distance(Q1, Q2, schatten(1, true)) == Approx(sa + sb).epsilon(1e-14));
  // Depends on the spans only: a rotated and sign-flipped basis of span(Q2) gives the same value.
  const Eigen::MatrixXd Q2b =
      Q2 * Eigen::Rotation2Dd(0.7).toRotationMatrix() * Eigen::Vector2d(1, -1).asDiagonal();
  CHECK(projector_distance(Q1, Q2b, {Norm::fro}) ==
        Approx(std::sqrt(2 * (sa * sa + sb * sb))).epsilon(1e-13));
  CHECK(projector_distance(Q2, Q2b, {Norm::op}) == Approx(0).margin(1e-15));
  // A tiny angle keeps its relative accuracy.
  Eigen::MatrixXd Q3 = Q1;
  Q3(0, 0) = std::cos(1e-9), Q3(2, 0) = std::sin(1e-9);
  CHECK(projector_distance(Q1, Q3, {Norm::op}) == Approx(std::sin(1e-9)).epsilon(1e-6));
}

TEST_CASE("projector_distance: random frames match the explicit norms of P1 - P2", "[metrics]") {
  Rng rng(5, 1);
  // (d, k) with 2k <= d and with 2k > d (then some principal angles are forced to 0).
  for (const auto& [d, k] : {std::pair<Eigen::Index, Eigen::Index>{9, 3}, {5, 3}, {4, 1}}) {
    const Eigen::MatrixXd Q1 = haar_frame(rng, d, k), Q2 = haar_frame(rng, d, k);
    const Eigen::MatrixXd diff = projector(Q1) - projector(Q2);
    for (double q : {1.0, 1.5, 2.0, 3.0, kInf})
      CHECK(projector_distance(Q1, Q2, schatten(q)) == Approx(schatten_norm(diff, q)).epsilon(1e-12));
    CHECK(projector_distance(Q1, Q2, {Norm::fro}) == Approx(diff.norm()).epsilon(1e-12));
    // ||P1 - P2||_F = sqrt(2) ||sin Theta||_F, with cos(theta_i) the singular values of Q1^T Q2.
    const Eigen::VectorXd cosines = Eigen::JacobiSVD<Eigen::MatrixXd>(Q1.transpose() * Q2).singularValues();
    const double sin_theta_fro = std::sqrt((1.0 - cosines.array().square()).sum());
    CHECK(projector_distance(Q1, Q2, {Norm::fro}) == Approx(std::sqrt(2.0) * sin_theta_fro).epsilon(1e-10));
    CHECK(projector_distance(Q1, Q2, {Norm::op}) ==
          Approx(std::sqrt(1.0 - cosines.minCoeff() * cosines.minCoeff())).epsilon(1e-10));
  }
}

TEST_CASE("projector_distance: invalid input throws InvalidArgument", "[metrics]") {
  const Eigen::MatrixXd Q = unit_frame(4, 0, 2);
  CHECK_THROWS_AS(projector_distance(Q, unit_frame(4, 0, 1), {}), InvalidArgument);
  CHECK_THROWS_AS(projector_distance(Q, unit_frame(5, 0, 2), {}), InvalidArgument);
  CHECK_THROWS_AS(projector_distance(Eigen::MatrixXd(4, 0), Eigen::MatrixXd(4, 0), {}), InvalidArgument);
  Eigen::MatrixXd nan = Q;
  nan(3, 1) = std::nan("");
  CHECK_THROWS_AS(projector_distance(Q, nan, {}), InvalidArgument);
  CHECK_THROWS_AS(projector_distance(2.0 * Q, Q, {}), InvalidArgument);  // not orthonormal
  Eigen::MatrixXd skew = Q;
  skew(0, 1) = 0.1;  // columns no longer orthogonal
  CHECK_THROWS_AS(projector_distance(Q, skew, {}), InvalidArgument);
  CHECK_THROWS_AS(projector_distance(Q, Q, schatten(0.5)), InvalidArgument);
}

TEST_CASE("covariance_error: diagonal differences by hand", "[metrics]") {
  const Eigen::Matrix3d S = Eigen::Vector3d(1, 2, 3).asDiagonal();
  const Eigen::Matrix3d S_hat = Eigen::Vector3d(1.5, 2, 1).asDiagonal();  // S_hat - S = diag(0.5, 0, -2)
  CHECK(covariance_error(S_hat, S, {Norm::op}) == Approx(2).epsilon(1e-14));
  CHECK(covariance_error(S_hat, S, {Norm::fro}) == Approx(std::sqrt(4.25)).epsilon(1e-14));
  CHECK(covariance_error(S_hat, S, schatten(1)) == Approx(2.5).epsilon(1e-14));
  CHECK(covariance_error(S_hat, S, schatten(3)) == Approx(std::cbrt(8.125)).epsilon(1e-14));
  // Normalised by r^{1/q} with r = 2.
  CHECK(covariance_error(S_hat, S, {Norm::op, 2, true}, 2) == Approx(2).epsilon(1e-14));
  CHECK(covariance_error(S_hat, S, {Norm::fro, 2, true}, 2) == Approx(std::sqrt(4.25 / 2)).epsilon(1e-14));
  CHECK(covariance_error(S_hat, S, schatten(1, true), 2) == Approx(1.25).epsilon(1e-14));
  CHECK(covariance_error(S_hat, S, schatten(3, true), 2) == Approx(std::cbrt(8.125 / 2)).epsilon(1e-14));
  // The rank is ignored when no normalisation is asked for.
  CHECK(covariance_error(S_hat, S, {Norm::fro}, 7) == Approx(std::sqrt(4.25)).epsilon(1e-14));
}

TEST_CASE("covariance_error: off-diagonal and non-symmetric differences", "[metrics]") {
  Eigen::Matrix2d S_hat = Eigen::Matrix2d::Identity();
  S_hat(0, 1) = S_hat(1, 0) = 1;  // S_hat - I has eigenvalues +1, -1
  CHECK(covariance_error(S_hat, Eigen::Matrix2d::Identity(), {Norm::op}) == Approx(1).epsilon(1e-14));
  CHECK(covariance_error(S_hat, Eigen::Matrix2d::Identity(), schatten(1)) == Approx(2).epsilon(1e-14));
  // A non-symmetric estimate: the difference [[0, 3], [0, 0]] has singular values 3, 0.
  Eigen::Matrix2d upper = Eigen::Matrix2d::Zero();
  upper(0, 1) = 3;
  CHECK(covariance_error(upper, Eigen::Matrix2d::Zero(), schatten(1)) == Approx(3).epsilon(1e-14));
  CHECK(covariance_error(upper, Eigen::Matrix2d::Zero(), {Norm::op}) == Approx(3).epsilon(1e-14));
}

TEST_CASE("covariance_error: invalid input throws InvalidArgument", "[metrics]") {
  const Eigen::Matrix2d I = Eigen::Matrix2d::Identity();
  CHECK_THROWS_AS(covariance_error(I, Eigen::Matrix3d::Identity(), {}), InvalidArgument);
  CHECK_THROWS_AS(covariance_error(Eigen::MatrixXd::Zero(2, 3), Eigen::MatrixXd::Zero(2, 3), {}),
                  InvalidArgument);
  Eigen::Matrix2d nan = I;
  nan(1, 0) = std::nan("");
  CHECK_THROWS_AS(covariance_error(nan, I, {}), InvalidArgument);
  CHECK_THROWS_AS(covariance_error(I, nan, {}), InvalidArgument);
  CHECK_THROWS_AS(covariance_error(I, I, {Norm::fro, 2, true}), InvalidArgument);  // no rank given
  CHECK_THROWS_AS(covariance_error(I, I, schatten(0)), InvalidArgument);
}
