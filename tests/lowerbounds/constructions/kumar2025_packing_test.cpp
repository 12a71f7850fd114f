#include "lowerbounds/constructions/kumar2025_packing.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

using namespace dpb::lower;

TEST_CASE("Lemma 20 packing: weight d/3, distance >= d/6, at least the Gilbert–Varshamov size",
          "[kumar2025][constructions]") {
  const Thm4Packing p = thm4_packing(18, 1, 100000);  // m = 6: a full lexicode over binom(18, 6) words
  CHECK(p.check.constant_weight == 6);
  CHECK(p.check.min_distance >= 3);
  CHECK(p.log_size_built == Approx(std::log(double(p.check.size))));
  // GV by hand for m = 6: words within distance < 3 have t = 0 or 1: V = 1 + 6 * 12 = 73, binom(18,6) =
  // 18564.
  CHECK(p.log_size_guarantee == Approx(std::log(18564.0 / 73)).epsilon(1e-12));
  CHECK(p.log_size_built >= p.log_size_guarantee);  // a maximal code meets GV
  CHECK(p.log_size() == p.log_size_built);
  // m = 8: V = 1 + binom(8,1) binom(16,1) = 129, binom(24,8) = 735471.
  CHECK(log_gv_code_size(8) == Approx(std::log(735471.0 / 129)).epsilon(1e-12));
  // A capped random code at large d: the GV count takes over.
  const Thm4Packing big = thm4_packing(300, 1, 64);
  CHECK(big.check.size == 64);
  CHECK(big.check.min_distance >= 50);
  CHECK(big.log_size() == big.log_size_guarantee);
  CHECK(big.log_size_guarantee > 100 * std::log(1.8) - 1.5 * std::log(100.0));  // Lemma 20's 2 1.8^m / m^1.5
  CHECK_THROWS_WITH(thm4_packing(20, 1, 10), Catch::Contains("3 | d"));
}

TEST_CASE("Thm 4 threshold n* = log(2(|C| - 1)) / eps", "[kumar2025][constructions]") {
  CHECK(thm4_sample_threshold(std::log(3.0), 2) == Approx(std::log(4.0) / 2).epsilon(1e-14));
  CHECK(thm4_sample_threshold(std::log(101.0), 0.5) == Approx(std::log(200.0) / 0.5).epsilon(1e-14));
  CHECK_THROWS_WITH(thm4_sample_threshold(1, 0), Catch::Contains("eps = 0 must be > 0"));
  CHECK_THROWS_WITH(thm4_sample_threshold(0, 1), Catch::Contains("2 words"));
}
