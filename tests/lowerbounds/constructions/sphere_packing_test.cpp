#include "lowerbounds/constructions/sphere_packing.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

TEST_CASE("measure_packing: distances, sin-separation and log size", "[constructions]") {
  Eigen::MatrixXd v(2, 3);
  v << 1, 0, -1,  //
      0, 1, 0;
  const auto packing = dpb::lower::measure_packing(v);
  CHECK(packing.log_size == Approx(std::log(3.0)));
  CHECK(packing.min_distance == Approx(std::sqrt(2.0)));  // e1 - e2
  CHECK(packing.max_distance == Approx(2));               // e1 - (-e1)
  CHECK(packing.min_sin == Approx(0).margin(1e-12));      // e1 and -e1 span the same line
  CHECK_THROWS_AS(dpb::lower::measure_packing(Eigen::MatrixXd::Identity(2, 1)), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::measure_packing(2 * Eigen::MatrixXd::Identity(2, 2)), dpb::InvalidArgument);
}

TEST_CASE("codeword_packing: Lemma C.3 distances from a weight-l code at distance >= l/2",
          "[constructions]") {
  const int l = 4;
  const auto code = dpb::lower::greedy_code(32, l, l / 2, dpb::lower::GreedyOrder::random, 5, 300);
  const double alpha = 0.5;
  const auto packing = dpb::lower::codeword_packing(code, alpha);
  CHECK(packing.vectors.rows() == 33);
  CHECK(packing.log_size == Approx(std::log(static_cast<double>(code.words.size()))));
  // Hamming distances lie in [l/2, 2l], so ||f(w) - f(w')|| = alpha sqrt(H/l) lies in [alpha/sqrt2, sqrt2
  // alpha].
  CHECK(packing.min_distance >= alpha / std::sqrt(2.0) - 1e-12);
  CHECK(packing.max_distance <= std::sqrt(2.0) * alpha + 1e-12);
  CHECK(packing.min_sin > 0);
  CHECK_THROWS_AS(dpb::lower::codeword_packing({3, {{1, 0, 0}, {1, 1, 0}}}, alpha), dpb::InvalidArgument);
}
