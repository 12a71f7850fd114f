#include "lowerbounds/constructions/liu2022_explicit_bounds.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

using dpb::bounds::Params;

// At d = 11 the Lemma C.5 packing is the 10 weight-1 codewords (|V| = 10, every Hamming distance 2, l = 1),
// so <f(w), f(w')> = 1 - alpha^2 for every pair: the explicit values have closed forms.

TEST_CASE("liu2022 Thm 5.3 explicit value: closed form at d = 11", "[liu2022]") {
  // n = 1, eps = 1, lambda = (2, 1): the sup sits at alpha = 1, where <v, v'> = 0: tau = 1,
  // KL = 1 * 1/(2*2*1) = 0.25, TV = sqrt(0.125); statistical = 0.5 (1 - (0.25 + log 2)/log 10) = 0.2951982;
  // [000]'s privacy term 0.4 * 10 e^{-10 sqrt(0.125)} = 0.1166 is smaller, so the conservative value is
  // 0.2951982.
  const Params p{{"n", 1}, {"d", 11}, {"epsilon", 1}, {"lambda1", 2}, {"lambda2", 1}};
  CHECK(dpb::lower::liu2022_thm53_value(p) == Approx(0.2951982).epsilon(1e-6));
}

TEST_CASE("liu2022 Thm 5.3 explicit value: positive and non-increasing in n and eps", "[liu2022]") {
  Params p{{"n", 10}, {"d", 30}, {"epsilon", 1}, {"lambda1", 2}, {"lambda2", 1}};
  double previous = std::numeric_limits<double>::infinity();
  for (double n : {10.0, 100.0, 1e3, 1e4, 1e5}) {
    p["n"] = n;
    const double v = dpb::lower::liu2022_thm53_value(p);
    CHECK(v > 0);
    CHECK(v <= previous);
    previous = v;
  }
  p["n"] = 1e3;
  previous = std::numeric_limits<double>::infinity();
  for (double eps : {0.01, 0.1, 1.0, 10.0}) {
    p["epsilon"] = eps;
    const double v = dpb::lower::liu2022_thm53_value(p);
    CHECK(v <= previous);
    previous = v;
  }
  CHECK_THROWS_WITH(dpb::lower::liu2022_thm53_value({{"n", 10}, {"d", 30}, {"epsilon", 1}, {"lambda1", 2}}),
                    Catch::Contains("'lambda2'"));
  CHECK_THROWS_AS(
      dpb::lower::liu2022_thm53_value({{"n", 10}, {"d", 30}, {"epsilon", 1}, {"lambda1", 1}, {"lambda2", 2}}),
      dpb::InvalidArgument);
}

TEST_CASE("liu2022 Thm 5.4 explicit value: closed form at d = 11", "[liu2022]") {
  // n = 100, eps = 1, delta = 1e-6, log(|V| - 1) = log 9:
  //   alpha = min{(log 9 - 1)/100, log((1 - e^-1)/(4e-6 e))/100, 1} = 0.01197225, m = ceil(1.197) = 2;
  //   P >= (e^-2/2 - 1e-6 (1 - e^-2)/(1 - e^-1)) / (1/9 + e^-2) = 0.2745679;
  //   t = min sin/2 at alpha_packing = 1/sqrt2: <v, v'> = 1/2, sin = sqrt(3)/2 -> value = 0.4330127 *
  //   0.2745679 = 0.1188914.
  CHECK(dpb::lower::liu2022_thm54_alpha(100, 1, 1e-6, std::log(9.0)) == Approx(0.01197225).epsilon(1e-6));
  const Params p{{"n", 100}, {"d", 11}, {"epsilon", 1}, {"delta", 1e-6}};
  CHECK(dpb::lower::liu2022_thm54_value(p) == Approx(0.1188914).epsilon(1e-6));
  // A delta too large for Eq. (30) is named in the error.
  CHECK_THROWS_WITH(dpb::lower::liu2022_thm54_value({{"n", 100}, {"d", 11}, {"epsilon", 1}, {"delta", 0.2}}),
                    Catch::Contains("delta"));
}

TEST_CASE("liu2022 Thm C.1 explicit value: closed form at d = 11", "[liu2022]") {
  // alpha = sqrt(1/2): sin = sqrt(3)/2; TV = p = (1 - 1/2)/11; KL infinite, so only 0.4 tau SECOND.
  //   n = 1:   n p eps = 0.04545: both SECONDs are 1 -> 0.4 sqrt(3)/2 = 0.3464102.
  //   n = 100: n p eps = 4.545: [003] 0.4*0.8660254*log(10)/4.545 = 0.1754806, [000] 0.4*0.8660254*10
  //   e^{-45.45}
  //            = 6.294081e-20; the conservative value is the smaller.
  Params p{{"n", 1}, {"d", 11}, {"epsilon", 1}, {"lambda1", 2}, {"lambda2", 1}};
  CHECK(dpb::lower::liu2022_thmC1_value(p) == Approx(0.3464102).epsilon(1e-6));
  p["n"] = 100;
  CHECK(dpb::lower::liu2022_thmC1_value(p) == Approx(6.294081e-20).epsilon(1e-5));
}
