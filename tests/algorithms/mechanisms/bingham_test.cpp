#include <catch2/catch.hpp>

#include <boost/math/special_functions/bessel.hpp>
#include <cmath>

#include "algorithms/mechanisms/bingham.hpp"
#include "core/errors.hpp"

using dpb::alg::bingham_envelope_b;
using dpb::alg::sample_bingham;

TEST_CASE("the Bingham envelope parameter solves sum_i 1/(b + 2 lambda_i) = 1", "[mechanisms]") {
  CHECK(bingham_envelope_b(Eigen::Vector3d::Zero()) == Approx(3.0));
  // 1/b + 1/(b + 2) = 1  <=>  b^2 = 2.
  CHECK(bingham_envelope_b(Eigen::Vector2d(0, 1)) == Approx(std::sqrt(2.0)));
}

TEST_CASE("Bingham with M = 0 is uniform on the sphere and accepts every proposal", "[mechanisms]") {
  dpb::core::Rng rng(7, 1);
  const int draws = 20000;
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();
  for (int i = 0; i < draws; ++i) {
    const auto draw = sample_bingham(Eigen::MatrixXd::Zero(3, 3), rng);
    REQUIRE(draw.proposals == 1);  // the envelope is the target itself
    REQUIRE(draw.x.norm() == Approx(1.0));
    second += draw.x * draw.x.transpose();
  }
  // E x x^T = I/3; each entry's estimate has sd <= sqrt(1/(5 * 20000)) ~ 0.003: 0.015 is five sds.
  CHECK((second / draws - Eigen::Matrix3d::Identity() / 3).cwiseAbs().maxCoeff() < 0.015);
}

TEST_CASE("Bingham on the circle matches its von Mises law", "[mechanisms]") {
  // exp(kappa (x.u)^2) = exp(kappa/2) exp((kappa/2) cos 2theta): 2theta ~ von Mises(kappa/2), so
  // E (x.u)^2 = (1 + I_1(kappa/2)/I_0(kappa/2)) / 2. u at 30 degrees, so M is not diagonal.
  const double kappa = 6;
  const Eigen::Vector2d u(std::cos(M_PI / 6), std::sin(M_PI / 6));
  const Eigen::MatrixXd M = kappa * u * u.transpose();
  const double expected =
      (1 + boost::math::cyl_bessel_i(1, kappa / 2) / boost::math::cyl_bessel_i(0, kappa / 2)) / 2;
  dpb::core::Rng rng(11, 2);
  const int draws = 20000;
  double sum = 0;
  for (int i = 0; i < draws; ++i) sum += std::pow(sample_bingham(M, rng).x.dot(u), 2);
  // (x.u)^2 in [0, 1] has sd <= 0.5, so the mean's sd is <= 0.0036: 0.015 is four sds.
  CHECK(sum / draws == Approx(expected).margin(0.015));
}

TEST_CASE("a concentrated Bingham draw is close to the top eigenvector, and cheap", "[mechanisms]") {
  // M = diag(500, 0, 0, 0, 0): near e_1 each other coordinate is ~N(0, 1/(2 * 500)), so
  // E (1 - x_1^2) ~ 4/1000 (Laplace's approximation; its error is O(1/500^2)).
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(5, 5);
  M(0, 0) = 500;
  dpb::core::Rng rng(13, 3);
  const int draws = 5000;
  double off = 0;
  long proposals = 0;
  for (int i = 0; i < draws; ++i) {
    const auto draw = sample_bingham(M, rng);
    off += 1 - draw.x(0) * draw.x(0);
    proposals += draw.proposals;
  }
  // 1 - x_1^2 ~ chi^2_4 / 1000: mean 0.004, sd 0.0028, so the mean of 5000 has sd 4e-5.
  CHECK(off / draws == Approx(0.004).margin(3e-4));
  CHECK(double(proposals) / draws < 5);  // the envelope stays efficient when concentrated
}

TEST_CASE("sample_bingham rejects a matrix that defines no Bingham law", "[mechanisms]") {
  dpb::core::Rng rng(1, 1);
  CHECK_THROWS_AS(sample_bingham(Eigen::MatrixXd(0, 0), rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(sample_bingham(Eigen::MatrixXd::Zero(2, 3), rng), dpb::InvalidArgument);
  Eigen::MatrixXd asymmetric = Eigen::MatrixXd::Zero(2, 2);
  asymmetric(0, 1) = 1;
  CHECK_THROWS_AS(sample_bingham(asymmetric, rng), dpb::InvalidArgument);
  Eigen::MatrixXd nan = Eigen::MatrixXd::Zero(2, 2);
  nan(1, 1) = std::nan("");
  CHECK_THROWS_AS(sample_bingham(nan, rng), dpb::InvalidArgument);
}
