#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>

#include "algorithms/registry.hpp"
#include "bounds/papers.hpp"
#include "core/errors.hpp"
#include "support/theorem_lookup.hpp"

using dpb::bounds::Params;
using dpb::bounds::Theorem;
using namespace dpb::test;

namespace {

const std::vector<Theorem>& all() {
  static const auto theorems = dpb::bounds::cai2024_upper_bounds();
  return theorems;
}

const Theorem& upper(const std::string& id) { return find_theorem(all(), id); }

bool holds(const std::string& id, const std::string& name, const Params& x) {
  return find_condition(upper(id), name).holds(x);
}

const std::string kSuffixes[] = {"q1", "q2", "qinf"};

// A: n = 20000, p = 50, r = 2, lambda = 10, sigma^2 = 1, eps = 1, delta = 0.1. By hand:
//   phi = 0.1 + sqrt(0.1) = 0.4162278;  log n = 9.9034876;  r + log n = 11.9034876 (sqrt 3.4501431)
//   L = log(2.5/0.1) = log 25 = 3.2188758 (sqrt 1.7941226)
//   projector privacy p sqrt(r + log n) sqrt(L)/(n eps) = 50 * 3.4501431 * 1.7941226 / 20000 = 0.0154749
//   eigenvalue privacy (r + log n)^{3/2} sqrt(L)/(n eps) = 41.068523 * 1.7941226 / 20000 = 0.0036841
Params point_a() {
  return {{"n", 20000}, {"p", 50}, {"r", 2}, {"lambda", 10}, {"sigma2", 1}, {"epsilon", 1}, {"delta", 0.1}};
}
// B, under the verifier's aliases d and k: n = 5000, p = 100, r = 1, lambda = 4, sigma^2 = 2, eps = 0.5,
// delta = 1e-3. phi = 0.5 + sqrt(0.5) = 1.2071068; log n = 8.5171932; L = log 2500 = 7.8240460;
//   projector privacy = 100 * sqrt(9.5171932) * sqrt(7.8240460) / 2500 = 100 * 3.0850 * 2.7971 / 2500 =
//   0.3451677 eigenvalue privacy = 9.5171932^{3/2} * 2.7971 / 2500 = 0.0328503
Params point_b() {
  return {{"n", 5000}, {"d", 100}, {"k", 1}, {"lambda", 4}, {"sigma2", 2}, {"epsilon", 0.5}, {"delta", 1e-3}};
}

}  // namespace

TEST_CASE("cai2024 upper bounds: the catalogue's shape and every example inside its domain", "[cai2024]") {
  for (const auto& t : all()) {
    INFO(t.id);
    CHECK(t.id.rfind("cai2024.", 0) == 0);
    CHECK(t.kind == dpb::bounds::Kind::upper);
    for (const auto& algorithm : t.applies) CHECK_NOTHROW(dpb::alg::algorithm_registry().find(algorithm));
    check_catalogue_entry(t);
  }
  CHECK(unique_ids(all()).size() == 29);
}

TEST_CASE("cai2024 Thm 3.1: the rate at two points, computed by hand, for every q and both semantics",
          "[cai2024]") {
  for (const auto& q : kSuffixes)
    for (const std::string mode : {"", ".expectation"}) {
      const auto& t = upper("cai2024.thm3.1." + q + mode);
      // A: phi (sqrt(p/n) + 0.0154749) = 0.4162278 * 0.0654749 = 0.0272525
      CHECK(t.rate(point_a()) == Approx(0.0272525).epsilon(1e-5));
      // B: 1.2071068 * (sqrt(0.02) + 0.3451677) = 1.2071068 * 0.4865891 = 0.5873649
      CHECK(t.rate(point_b()) == Approx(0.5873649).epsilon(1e-5));
      CHECK(t.semantics.high_probability == mode.empty());
    }
  // The spec's name wins over the alias when both are given.
  CHECK(upper("cai2024.thm3.1.q2").rate(with(point_a(), "d", 999)) == Approx(0.0272525).epsilon(1e-5));
}

TEST_CASE("cai2024 Thm 3.2, Cor 1, Cor 2, Thm 5.2: rates computed by hand", "[cai2024]") {
  for (const auto& q : kSuffixes) {
    // Thm 3.2 A: lambda (sqrt(r/n) + 0.0036841) + sqrt(11) (0.05 + 0.0154749)
    //          = 10 * 0.0136841 + 3.3166248 * 0.0654749 = 0.136841 + 0.217156 = 0.3539970
    CHECK(upper("cai2024.thm3.2." + q).rate(point_a()) == Approx(0.3539970).epsilon(1e-5));
    // Thm 3.2 B: 4 (sqrt(1/5000) + 0.0328503) + sqrt(12) (0.1414214 + 0.3451677)
    //          = 4 * 0.0469924 + 3.4641016 * 0.4865891 = 0.1879696 + 1.6855940 = 1.8735636
    CHECK(upper("cai2024.thm3.2." + q + ".expectation").rate(point_b()) == Approx(1.8735636).epsilon(1e-5));
    // Cor 1 at A with kappa0 = 4 (lambda_r = 2.5): (1/2.5 + sqrt(10)/2.5) * 0.0654749 = 1.6649111 * 0.0654749
    //   = 0.1090100; the covariance bound uses lambda_1 = lambda, so it equals Thm 3.2's at A.
    CHECK(upper("cai2024.cor1.pca." + q).rate(with(point_a(), "kappa0", 4)) ==
          Approx(0.1090100).epsilon(1e-5));
    CHECK(upper("cai2024.cor1.cov." + q).rate(with(point_a(), "kappa0", 4)) ==
          Approx(0.3539970).epsilon(1e-5));
    // Cor 2 at A: sqrt(p log p / n) = sqrt(50 * 3.9120230 / 20000) = 0.0988941;
    //   PCA 0.4162278 * (0.0988941 + 0.0154749) = 0.0476036;
    //   covariance 0.136841 + 3.3166248 * 0.1143690 = 0.136841 + 0.379319 = 0.5161606.
    CHECK(upper("cai2024.cor2.pca." + q).rate(point_a()) == Approx(0.0476036).epsilon(1e-5));
    CHECK(upper("cai2024.cor2.cov." + q).rate(point_a()) == Approx(0.5161606).epsilon(1e-5));
  }
  // Thm 5.2 at A with log(4/delta) = log 40 = 3.6888795 (sqrt 1.9206456):
  //   projector privacy 50 * 3.4501431 * 1.9206456 / 20000 = 0.0165661, eigenvalue 41.068523 * 1.9206456 /
  //   20000 = 0.0039439; PCA 0.4162278 * 0.0665661 = 0.0277067; covariance 10 * 0.0139439 + 3.3166248 *
  //   0.0665661 = 0.139439 + 0.220775 = 0.3602145.
  CHECK(upper("cai2024.thm5.2.pca.q2").rate(point_a()) == Approx(0.0277067).epsilon(1e-5));
  CHECK(upper("cai2024.thm5.2.cov.qinf").rate(point_a()) == Approx(0.3602145).epsilon(1e-5));
  CHECK(upper("cai2024.thm5.2.cov.q2").rate(point_a()) == Approx(0.3602145).epsilon(1e-5));
  // §7.2: |lambdatil - lambda| <~ lambda.
  CHECK(upper("cai2024.sec7.2").rate(point_a()) == 10);
}

TEST_CASE("cai2024 standing conditions on both sides", "[cai2024]") {
  const std::string id = "cai2024.thm3.1.q2";
  const Params a = point_a();
  // C-n: 2 (r log n + log^2 n) = 2 (19.807 + 98.079) = 235.8 <= 20000; at n = 30: 2 (6.802 + 11.568) = 36.7
  // > 30.
  CHECK(holds(id, "C-n", a));
  CHECK_FALSE(holds(id, "C-n", with(a, "n", 30)));
  CHECK_FALSE(holds(id, "C-n", with(a, "C1", 1000)));  // the constant is exposed: 1000 * 117.9 > 20000
  CHECK(holds(id, "C-r", a));
  CHECK_FALSE(holds(id, "C-r", with(a, "p", 3)));
  // C-SNR: 2 (p/n + sqrt(p/n)) = 2 (0.0025 + 0.05) = 0.105.
  CHECK(holds(id, "C-SNR", with(a, "lambda", 0.11)));
  CHECK_FALSE(holds(id, "C-SNR", with(a, "lambda", 0.1)));
  CHECK(holds(id, "Theta", with(a, "kappa0", 2)));
  CHECK_FALSE(holds(id, "Theta", with(a, "kappa0", 2.5)));
  // Algorithm 1 halves the budget: eps/2 < 1.
  CHECK(holds(id, "classical calibration", with(a, "epsilon", 1.99)));
  CHECK_FALSE(holds(id, "classical calibration", with(a, "epsilon", 2)));
  // C-exp: lambda/sigma^2 = 10 <= (p/n) e^{0.5 (n ∧ p)}; at p = 4: 2e-4 e^2 = 1.5e-3 < 10.
  CHECK(holds(id + ".expectation", "C-exp", a));
  CHECK_FALSE(holds(id + ".expectation", "C-exp", with(a, "p", 4)));
}

TEST_CASE("cai2024 Thm 5.2 and Corollary conditions on both sides", "[cai2024]") {
  const std::string id = "cai2024.thm5.2.pca.q2";
  const Params a = point_a();
  // (12a): c0 n eps sqrt((p∧n)/log n) / ((r + log n) sqrt(log 40)) = 0.1 * 20000 * 2.2469 / (11.9035
  // * 1.9206) = 196.6
  CHECK(holds(id, "(12a)", with(a, "lambda", 190)));
  CHECK_FALSE(holds(id, "(12a)", with(a, "lambda", 200)));
  // (12b): at n = 60: (50/60) sqrt(log 60 / 50) = 0.2385 > 0.1 / 1.9206 = 0.0521.
  CHECK(holds(id, "(12b)", a));
  CHECK_FALSE(holds(id, "(12b)", with(a, "n", 60)));
  CHECK(holds(id, "bounded rank (Thm 5.1)", with(a, "r", 10)));
  CHECK_FALSE(holds(id, "bounded rank (Thm 5.1)", with(a, "r", 11)));
  CHECK(holds(id, "classical calibration", with(a, "epsilon", 2.9)));  // thirds
  CHECK_FALSE(holds(id, "classical calibration", with(a, "epsilon", 3)));

  // Cor 1 at its example (n = 50000, r = 3, kappa0 = 4).
  const Params c1 = upper("cai2024.cor1.pca.q2").example;
  CHECK(holds("cai2024.cor1.pca.q2", "C-n (Cor 1)", c1));
  CHECK_FALSE(
      holds("cai2024.cor1.pca.q2", "C-n (Cor 1)", with(c1, "kappa0", 50)));  // 2 (2500 * 3 * 10.82) > 50000
  // lambda_r / sigma^2 >= 2 (kappa0 p/n + sqrt(p/n)) = 2 (0.004 + 0.0316) = 0.0712: lambda = 0.2 gives 0.05.
  CHECK(holds("cai2024.cor1.pca.q2", "C-SNR (Cor 1)", c1));
  CHECK_FALSE(holds("cai2024.cor1.pca.q2", "C-SNR (Cor 1)", with(c1, "lambda", 0.2)));
  CHECK_FALSE(holds("cai2024.cor1.pca.q2", "C-exp (Cor 1)", with(c1, "p", 6)));  // 1.2e-4 e^3 / 2 < 10

  // Cor 2 at A: 2 (p/n + sqrt(p/n)) log(p + n) = 0.105 * log 20050 = 1.0400.
  CHECK(holds("cai2024.cor2.pca.q2", "C-SNR (Cor 2)", with(a, "lambda", 1.1)));
  CHECK_FALSE(holds("cai2024.cor2.pca.q2", "C-SNR (Cor 2)", with(a, "lambda", 1.0)));
  // n >= 2 (r log(p + n) log^2 r + log^2 n): at n = 40: 2 (2 * 4.4998 * 0.4805 + 13.608) = 35.9;
  // at n = 30: 2 (2 * 4.3820 * 0.4805 + 11.568) = 31.6.
  CHECK(holds("cai2024.cor2.pca.q2", "C-n (Cor 2)", with(a, "n", 40)));
  CHECK_FALSE(holds("cai2024.cor2.pca.q2", "C-n (Cor 2)", with(a, "n", 30)));
}

TEST_CASE("cai2024 §7 rank and spike consistency conditions on both sides", "[cai2024]") {
  const Params a = point_a();
  CHECK(holds("cai2024.sec7.1", "R >= r", with(a, "R", 2)));
  // rhat = r: an integer rank error of at most 1/2.
  const Theorem& rank = upper("cai2024.sec7.1");
  REQUIRE(rank.explicit_value);
  CHECK((*rank.explicit_value)(a) == 0.5);
  CHECK_FALSE(holds("cai2024.sec7.1", "R >= r", with(a, "R", 1)));
  // p sqrt(log R log 25)/(n eps) at R = 10: 50 sqrt(2.3025851 * 3.2188758)/20000 = 50 * 2.7224712 / 20000 =
  // 0.0068062.
  CHECK(holds("cai2024.sec7.1", "C-SNR (rank)", with(a, "lambda", 0.0069)));
  CHECK_FALSE(holds("cai2024.sec7.1", "C-SNR (rank)", with(a, "lambda", 0.0067)));
  // n eps >= r + log n: n = 12: 12 >= 4.48, and 12 * 0.3 = 3.6 < 4.48.
  CHECK(holds("cai2024.sec7.2", "n eps (spike)", with(a, "n", 12)));
  CHECK_FALSE(holds("cai2024.sec7.2", "n eps (spike)", with(with(a, "n", 12), "epsilon", 0.3)));
  // p sqrt(L)/(n eps) = 50 * 1.7941226 / 20000 = 0.0044853.
  CHECK(holds("cai2024.sec7.2", "C-SNR (spike)", with(a, "lambda", 0.0046)));
  CHECK_FALSE(holds("cai2024.sec7.2", "C-SNR (spike)", with(a, "lambda", 0.0044)));
}

TEST_CASE("cai2024 upper bounds: missing or out-of-domain parameters are named", "[cai2024]") {
  const auto& t = upper("cai2024.thm3.2.qinf");
  Params x = point_a();
  x.erase("sigma2");
  CHECK_THROWS_WITH(t.rate(x), Catch::Contains("'sigma2'"));
  x = point_a();
  x.erase("p");
  CHECK_THROWS_WITH(t.rate(x), Catch::Contains("'p'"));
  CHECK_THROWS_AS(t.conditions.front().holds(x), dpb::InvalidArgument);
  CHECK_THROWS_WITH(t.rate(with(point_a(), "delta", 1)), Catch::Contains("'delta'"));
}
