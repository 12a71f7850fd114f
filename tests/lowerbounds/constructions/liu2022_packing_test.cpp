#include "lowerbounds/constructions/liu2022_packing.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "lowerbounds/constructions/sphere_packing.hpp"

TEST_CASE("Lemma C.5 code at d = 11: all ten weight-1 words", "[constructions][liu2022]") {
  // l = floor(10/8) = 1, distance >= ceil(1/2) = 1: every weight-1 word of length 10 qualifies and any two
  // differ in exactly 2 places, so the greedy scan keeps all binom(10, 1) = 10.
  const auto code = dpb::lower::liu2022_lemma_c5_code(11, 1, 100);
  CHECK(code.weight == 1);
  CHECK(code.code.words.size() == 10);
  CHECK(code.min_hamming == 2);
  CHECK(code.max_hamming == 2);
  CHECK(code.log_size == Approx(std::log(10.0)));
  CHECK_THROWS_AS(dpb::lower::liu2022_lemma_c5_code(8, 1, 100), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::liu2022_lemma_c5_code(20, 1, 1), dpb::InvalidArgument);
}

TEST_CASE("Lemma C.5 code at d = 41: weight 5, distance >= 3, deterministic", "[constructions][liu2022]") {
  const auto code = dpb::lower::liu2022_lemma_c5_code(41, 2, 300);
  const auto check = dpb::lower::verify_code(code.code);
  CHECK(code.weight == 5);
  CHECK(code.code.length == 40);
  CHECK(check.size == 300);
  CHECK(check.min_distance >= 3);
  CHECK(code.min_hamming == check.min_distance);
  CHECK(code.max_hamming <= 10);
  CHECK(dpb::lower::liu2022_lemma_c5_code(41, 2, 300).code.words == code.code.words);
}

TEST_CASE("packing geometry from the Hamming range equals the measured packing", "[constructions][liu2022]") {
  const auto code = dpb::lower::liu2022_lemma_c5_code(41, 2, 200);
  for (double alpha : {0.1, 0.5, 0.9, 1.0}) {
    INFO(alpha);
    const auto geometry = dpb::lower::liu2022_packing_geometry(code, alpha);
    const auto measured = dpb::lower::codeword_packing(code.code, alpha);
    CHECK(geometry.min_sin == Approx(measured.min_sin).epsilon(1e-9));
    const double max_inner = 1 - measured.max_distance * measured.max_distance / 2;  // unit vectors
    CHECK(geometry.max_one_minus_cos2 == Approx(1 - max_inner * max_inner).epsilon(1e-9));
  }
  CHECK_THROWS_AS(dpb::lower::liu2022_packing_geometry(code, 0), dpb::InvalidArgument);
}
