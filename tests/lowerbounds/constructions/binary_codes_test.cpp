#include "lowerbounds/constructions/binary_codes.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

using dpb::lower::BinaryCode;
using dpb::lower::Codeword;
using dpb::lower::GreedyOrder;

namespace {

Codeword word(const std::string& bits) {
  Codeword w;
  for (char c : bits) w.push_back(static_cast<std::uint8_t>(c == '1'));
  return w;
}

}  // namespace

TEST_CASE("hamming_distance counts differing positions", "[constructions]") {
  CHECK(dpb::lower::hamming_distance(word("0000"), word("0000")) == 0);
  CHECK(dpb::lower::hamming_distance(word("1010"), word("0110")) == 2);
  CHECK(dpb::lower::hamming_distance(word("1111"), word("0000")) == 4);
  CHECK_THROWS_AS(dpb::lower::hamming_distance(word("01"), word("011")), dpb::InvalidArgument);
}

TEST_CASE("verify_code measures size, minimum distance and constant weight", "[constructions]") {
  const BinaryCode code{4, {word("1100"), word("0011"), word("1010")}};
  const auto check = dpb::lower::verify_code(code);
  CHECK(check.size == 3);
  CHECK(check.min_distance == 2);  // 1100-1010 differ in two places
  REQUIRE(check.constant_weight);
  CHECK(*check.constant_weight == 2);
  CHECK_FALSE(dpb::lower::verify_code({4, {word("1100"), word("1000")}}).constant_weight);
  CHECK(dpb::lower::verify_code({4, {word("1100")}}).min_distance == 0);
  CHECK_THROWS_AS(dpb::lower::verify_code({4, {word("110")}}), dpb::InvalidArgument);
}

TEST_CASE("the length-7 distance-3 lexicode is the Hamming code", "[constructions]") {
  const BinaryCode code = dpb::lower::greedy_code(7, std::nullopt, 3, GreedyOrder::lexicographic, 0, 1000);
  const auto check = dpb::lower::verify_code(code);
  // The [7,4,3] Hamming code is perfect: 16 balls of radius 1 (1 + 7 words each) fill all 2^7 = 128 words.
  CHECK(check.size == 16);
  CHECK(check.min_distance == 3);
  // The greedy scan keeps 0000000 first, then the smallest weight-3 word 0000111.
  CHECK(code.words[0] == word("0000000"));
  CHECK(code.words[1] == word("0000111"));
  // Lexicodes are linear: the sum of any two codewords is a codeword.
  for (const auto& a : code.words)
    for (const auto& b : code.words) {
      Codeword sum(7);
      for (int j = 0; j < 7; ++j) sum[j] = a[j] ^ b[j];
      CHECK(std::find(code.words.begin(), code.words.end(), sum) != code.words.end());
    }
}

TEST_CASE("the constant-weight lexicode of length 6, weight 3, distance 4", "[constructions]") {
  // By hand: after 000111 ({3,4,5}) the scan needs overlap <= 1 with every kept support: 011001 ({1,2,5}),
  // then 101010 ({0,2,4}), then 110100 ({0,1,3}); 111000 overlaps {1,2,5} twice. A(6,4,3) = 4.
  const BinaryCode code = dpb::lower::greedy_code(6, 3, 4, GreedyOrder::lexicographic, 0, 1000);
  REQUIRE(code.words.size() == 4);
  CHECK(code.words[0] == word("000111"));
  CHECK(code.words[1] == word("011001"));
  CHECK(code.words[2] == word("101010"));
  CHECK(code.words[3] == word("110100"));
}

TEST_CASE("random greedy codes are valid, deterministic for a seed and capped", "[constructions]") {
  const auto a = dpb::lower::greedy_code(40, 5, 4, GreedyOrder::random, 7, 200);
  const auto b = dpb::lower::greedy_code(40, 5, 4, GreedyOrder::random, 7, 200);
  const auto c = dpb::lower::greedy_code(40, 5, 4, GreedyOrder::random, 8, 200);
  CHECK(a.words == b.words);
  CHECK(a.words != c.words);
  const auto check = dpb::lower::verify_code(a);
  CHECK(check.size == 200);  // binom(40,5) = 658008 words leave room for 200 at distance 4
  CHECK(check.min_distance >= 4);
  REQUIRE(check.constant_weight);
  CHECK(*check.constant_weight == 5);
  // Unconstrained weight: every kept pair still at distance >= 10.
  const auto free = dpb::lower::greedy_code(100, std::nullopt, 10, GreedyOrder::random, 3, 50);
  CHECK(dpb::lower::verify_code(free).size == 50);
  CHECK(dpb::lower::verify_code(free).min_distance >= 10);
  // The lexicographic scan stops at max_words too.
  CHECK(dpb::lower::greedy_code(7, std::nullopt, 3, GreedyOrder::lexicographic, 0, 5).words.size() == 5);
}

TEST_CASE("greedy_code rejects bad arguments and infeasible lexicographic scans", "[constructions]") {
  using dpb::InvalidArgument;
  CHECK_THROWS_AS(dpb::lower::greedy_code(0, std::nullopt, 1, GreedyOrder::random, 0, 10), InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::greedy_code(5, 6, 1, GreedyOrder::random, 0, 10), InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::greedy_code(5, std::nullopt, 0, GreedyOrder::random, 0, 10), InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::greedy_code(5, std::nullopt, 1, GreedyOrder::random, 0, 0), InvalidArgument);
  // 2^30 candidates exceed the lexicographic limit; binom(30, 2) = 435 do not.
  CHECK_THROWS_WITH(dpb::lower::greedy_code(30, std::nullopt, 2, GreedyOrder::lexicographic, 0, 10),
                    Catch::Contains("random order"));
  CHECK(dpb::lower::greedy_code(30, 2, 2, GreedyOrder::lexicographic, 0, 1000).words.size() == 435);
}

TEST_CASE("codeword_to_vector: the Lemma C.5 map", "[constructions]") {
  const double alpha = 0.6;
  const Codeword w = word("1100000"), v = word("0110000"), u = word("0011000");
  const auto fw = dpb::lower::codeword_to_vector(w, alpha);
  REQUIRE(fw.size() == 8);
  CHECK(fw.norm() == Approx(1));
  CHECK(fw(0) == Approx(0.8));                 // sqrt(1 - 0.36)
  CHECK(fw(1) == Approx(0.6 / std::sqrt(2)));  // alpha / sqrt(l), l = 2
  // ||f(w) - f(w')||^2 = alpha^2 H/l: H = 2 -> 0.36, H = 4 -> 0.72.
  CHECK((fw - dpb::lower::codeword_to_vector(v, alpha)).squaredNorm() == Approx(0.36));
  CHECK((fw - dpb::lower::codeword_to_vector(u, alpha)).squaredNorm() == Approx(0.72));
  CHECK_THROWS_AS(dpb::lower::codeword_to_vector(w, 1.5), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::lower::codeword_to_vector(word("000"), 0.5), dpb::InvalidArgument);
}
