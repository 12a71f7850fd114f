// liu2022 upper bounds: every rate against values computed by hand from the printed formulas, every
// condition on both sides, the example points, and missing parameters.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "bounds/papers.hpp"
#include "core/errors.hpp"
#include "support/theorem_lookup.hpp"

using dpb::bounds::Params;
using dpb::bounds::Theorem;
using namespace dpb::test;

namespace {

Theorem liu2022_theorem(const std::string& id) {
  return find_theorem(dpb::bounds::liu2022_upper_bounds(), id);
}

}  // namespace

TEST_CASE("liu2022 upper bounds: ids, kinds, settings and examples", "[liu2022]") {
  const auto all = dpb::bounds::liu2022_upper_bounds();
  for (const auto& t : all) {
    INFO(t.id);
    CHECK(t.id.rfind("liu2022.", 0) == 0);
    CHECK(t.kind == dpb::bounds::Kind::upper);
    CHECK(t.semantics.high_probability);
    CHECK(t.semantics.zeta == 0.01);
    check_catalogue_entry(t);
  }
  CHECK(unique_ids(all) == std::set<std::string>{"liu2022.thm2.2", "liu2022.lem3.2", "liu2022.thm3.3",
                                                 "liu2022.eq6", "liu2022.thm5.1", "liu2022.cor5.2",
                                                 "liu2022.thm6.1", "liu2022.lem6.2", "liu2022.eq3",
                                                 "liu2022.ex4.1.private_oja", "liu2022.ex4.1.dp_pca"});
}

TEST_CASE("liu2022 Thm 2.2: Eq. (2) with xi of Sec. 2.1", "[liu2022]") {
  const Theorem t = liu2022_theorem("liu2022.thm2.2");
  // A: kappa = 2/(2-1) = 2, alpha = 1: xi = 20 max(2*5*1, 4*4*1/log(1.0001)) = 20 * 160008.0 = 3200160.0;
  //    sin = sqrt(1*4*3/(1*1e8) + 10 (3200160/1e8)^2) = sqrt(1.2e-7 + 0.0102410) = 0.1011985.
  CHECK(t.rate(t.example) == Approx(0.1011985).epsilon(1e-6));
  // B: alpha = 2, n = 1e9: xi = 20 max(2*5*2, 4*(3+1)*4/log(1.0001)) = 20 * 640032 = 12800640;
  //    sin = sqrt(4*4*3/(3*1e9) + 10 (0.01280064)^4) = sqrt(1.6e-8 + 2.6849e-7) = 5.33375e-4.
  CHECK(t.rate(with(with(t.example, "lr_mult", 2), "n", 1e9)) == Approx(5.33375e-4).epsilon(1e-5));
  CHECK_FALSE(find_condition(t, "alpha > 1/2").holds(with(t.example, "lr_mult", 0.5)));
  CHECK_FALSE(find_condition(t, "T > xi").holds(with(t.example, "n", 3.2e6)));
  CHECK(find_condition(t, "T > xi").holds(with(t.example, "n", 3.21e6)));
  CHECK_THROWS_WITH(t.rate(without(t.example, "lr_mult")), Catch::Contains("'lr_mult'"));
}

TEST_CASE("liu2022 Lemma 3.2: the clipping threshold", "[liu2022]") {
  const Theorem t = liu2022_theorem("liu2022.lem3.2");
  // A: 2 sqrt(10) (4*1.5 + 1) = 44.27189;  B: 3 sqrt(20) (1*2 + 1) = 40.24922.
  CHECK(t.rate(t.example) == Approx(44.27189).epsilon(1e-6));
  CHECK(t.rate({{"lambda1", 3}, {"d", 20}, {"K", 1}, {"gamma", 2}}) == Approx(40.24922).epsilon(1e-6));
  CHECK_THROWS_WITH(t.rate(without(t.example, "gamma")), Catch::Contains("'gamma'"));
  // Explicit: max_t ||A_t w|| / beta <= 1/C; a threshold C = 0.2 times Lemma 3.2's allows a ratio of 5.
  REQUIRE(t.explicit_value);
  CHECK((*t.explicit_value)(t.example) == 1);
  CHECK((*t.explicit_value)(with(t.example, "clip_constant", 0.2)) == Approx(5));
}

TEST_CASE("liu2022 Thm 3.3 and Eq. (6): Private Oja", "[liu2022]") {
  const Theorem t = liu2022_theorem("liu2022.thm3.3");
  // A: 2 (sqrt(3/1e6) + (1+1) 10 log(1e6)/(5e-3 * 1e6)) = 0.1139882.
  CHECK(t.rate(t.example) == Approx(0.1139882).epsilon(1e-6));
  // B: lambda = (4, 3) -> kappa 4; 4 (sqrt(5/1e5) + 3*20 log(1e3)/(0.1*1e5)) = 0.1940704.
  const Params b{{"n", 1e5},     {"d", 20},      {"epsilon", 0.1}, {"delta", 1e-3},
                 {"lambda1", 4}, {"lambda2", 3}, {"V", 5},     {"gamma", 2}};
  CHECK(t.rate(b) == Approx(0.1940704).epsilon(1e-6));
  // Eq. (4) at the example needs C_n (4 + 10 + 12 + 10*2*2*log(1e6)/5e-3) = 110550.6: fails at n = 1e5.
  CHECK_FALSE(find_condition(t, "Eq. (4)").holds(with(t.example, "n", 1e5)));
  CHECK(find_condition(t, "Eq. (4)").holds(with(t.example, "n", 1.2e5)));
  CHECK_FALSE(find_condition(t, "Eq. (4)").holds(with(t.example, "C_n", 10)));
  // Lemma 3.1: eps <= sqrt(log(1e6/1e-6)/1e6) = 5.2565e-3.
  CHECK_FALSE(find_condition(t, "Lemma 3.1 regime").holds(with(t.example, "epsilon", 5.3e-3)));
  CHECK(find_condition(t, "Lemma 3.1 regime").holds(with(t.example, "epsilon", 5.2e-3)));
  CHECK_THROWS_WITH(t.rate(without(t.example, "V")), Catch::Contains("'V'"));

  const Theorem g = liu2022_theorem("liu2022.eq6");
  // A: 2 (sqrt(20/1e6) + 20 log(1e6)/(5e-3 * 1e6)) = 0.1194684;  B: 4 (sqrt(50/1e5) + 50 log(1e3)/(0.1*1e5))
  // = 0.2275978.
  CHECK(g.rate(g.example) == Approx(0.1194684).epsilon(1e-6));
  CHECK(g.rate({{"n", 1e5}, {"d", 50}, {"epsilon", 0.1}, {"delta", 1e-3}, {"lambda1", 4}, {"lambda2", 3}}) ==
        Approx(0.2275978).epsilon(1e-6));
  // Gaussian constants: M = d log n, V = 2 + 19/2, gamma = sqrt 2: at n = 2.6e5 Eq. (4) needs
  // 4 + 2*20 log(2.6e5) + 4*11.5 + 20*2*(sqrt2+1)*log(1e6)/5e-3 = 4 + 498.8 + 46 + 266829 = 267377 > n.
  CHECK_FALSE(find_condition(g, "Eq. (4)").holds(with(g.example, "n", 2.6e5)));
  CHECK(find_condition(g, "Eq. (4)").holds(with(g.example, "n", 2.7e5)));
  CHECK_THROWS_WITH(g.rate(without(g.example, "lambda2")), Catch::Contains("'lambda2'"));
}

TEST_CASE("liu2022 Thm 5.1 and Cor 5.2: DP-PCA", "[liu2022]") {
  const Theorem t = liu2022_theorem("liu2022.thm5.1");
  // A: 2 (sqrt(3/1e7) + 1*10 sqrt(log(1e8))/(0.5*1e7)) = 1.1126128e-3.
  CHECK(t.rate(t.example) == Approx(1.1126128e-3).epsilon(1e-6));
  // B: kappa 4: 4 (sqrt(5/1e5) + 2*20 sqrt(log(1e3))/(0.1*1e5)) = 0.07033645.
  const Params b{{"n", 1e5},     {"d", 20},      {"epsilon", 0.1}, {"delta", 1e-3},
                 {"lambda1", 4}, {"lambda2", 3}, {"V", 5},     {"gamma", 2}};
  CHECK(t.rate(b) == Approx(0.07033645).epsilon(1e-6));
  // Eq. (9): kappa = 4 needs e^16 + 500.2 + 4*5 + 16*3 + 10*4*1*sqrt(log 1e8)/0.5 = 8.887e6 <= 1e7;
  // kappa = 5 needs e^25 = 7.2e10 > 1e7.
  CHECK(find_condition(t, "Eq. (9)").holds(with(with(t.example, "lambda1", 4), "lambda2", 3)));
  CHECK_FALSE(find_condition(t, "Eq. (9)").holds(with(with(t.example, "lambda1", 5), "lambda2", 4)));
  // Thm 6.1 batch: (log n)^2 16*10*log(1e8)/0.5 = 5894.6 (log n)^2: 1.125e6 at n = 1e6, 1.155e6 at n = 1.2e6.
  CHECK_FALSE(find_condition(t, "Thm 6.1 batch").holds(with(t.example, "n", 1e6)));
  CHECK(find_condition(t, "Thm 6.1 batch").holds(with(t.example, "n", 1.2e6)));
  CHECK_FALSE(find_condition(t, "delta <= 1/n").holds(with(t.example, "delta", 2e-7)));
  CHECK(find_condition(t, "delta <= 1/n").holds(with(t.example, "delta", 1e-7)));
  CHECK_FALSE(find_condition(t, "eps < 0.9").holds(with(t.example, "epsilon", 0.9)));
  CHECK(find_condition(t, "eps < 0.9").holds(with(t.example, "epsilon", 0.89)));
  CHECK_THROWS_WITH(t.rate(without(t.example, "gamma")), Catch::Contains("'gamma'"));

  const Theorem g = liu2022_theorem("liu2022.cor5.2");
  // A: 2 (sqrt(20/1e7) + 20 sqrt(log(1e8))/(0.5*1e7)) = 2.8627626e-3;  B: 4 (sqrt(50/1e5) + 50 sqrt(log
  // 1e3)/1e4) = 0.1420079.
  CHECK(g.rate(g.example) == Approx(2.8627626e-3).epsilon(1e-6));
  CHECK(g.rate({{"n", 1e5}, {"d", 50}, {"epsilon", 0.1}, {"delta", 1e-3}, {"lambda1", 4}, {"lambda2", 3}}) ==
        Approx(0.1420079).epsilon(1e-6));
  // Gaussian K = 4: the batch condition (log n)^2 16 d log(1/delta)/eps fails at d = 200 (1.5e7 > 1e7).
  CHECK_FALSE(find_condition(g, "Thm 6.1 batch").holds(with(g.example, "d", 200)));
  CHECK_THROWS_WITH(g.rate(without(g.example, "epsilon")), Catch::Contains("'epsilon'"));
}

TEST_CASE("liu2022 Thm 6.1 and Lemma 6.2: the private sub-routines", "[liu2022]") {
  const Theorem e = liu2022_theorem("liu2022.thm6.1");
  // lambda1^2 ||H_u||: A 2^2 * 1 = 4; B 3^2 * 0.5 = 4.5.
  CHECK(e.rate(e.example) == Approx(4));
  CHECK(e.rate({{"lambda1", 3}, {"H_u", 0.5}}) == Approx(4.5));
  // Eq. (14) before its O~, at K = 2, a = 1/2, d = 5, eps = 0.8, delta = 1e-6, zeta = 0.01 and n = 1e5:
  // B >= 4 * 5 * log^2(1e5 * 5 * log(1e8) / 0.8) * log(1e8) / 0.8 = 4 * 5 * 16.259^2 * 18.421 / 0.8 = 121740.
  const Params gaussian_vectors = {{"K", 2}, {"a", 0.5}, {"d", 5}, {"epsilon", 0.8}, {"delta", 1e-6}, {"zeta", 0.01}};
  const auto eq14 = find_condition(e, "Eq. (14)");
  CHECK_FALSE(eq14.holds(with(with(gaussian_vectors, "n", 1e5), "B", 121700)));
  CHECK(eq14.holds(with(with(gaussian_vectors, "n", 1e5), "B", 121780)));
  // A standalone run has B = n: at n = 1.2e5 the bound is 124485 (the log's n grows with B).
  CHECK_FALSE(eq14.holds(with(gaussian_vectors, "n", 1.2e5)));
  CHECK(eq14.holds(with(gaussian_vectors, "n", 1.3e5)));  // bound 125680
  // a = 1 (the default, A = x x^T) cubes the log: the example's B = 1e8 holds, 1e7 does not.
  CHECK(eq14.holds(e.example));
  CHECK_FALSE(eq14.holds(with(e.example, "B", 1e7)));
  // The containment itself is the explicit value: |log2(Lambda_hat / (lambda1^2 ||H_u||))| <= 1/2.
  REQUIRE(e.explicit_value);
  CHECK((*e.explicit_value)(e.example) == 0.5);
  CHECK_THROWS_WITH(e.rate(without(e.example, "H_u")), Catch::Contains("'H_u'"));

  const Theorem m = liu2022_theorem("liu2022.lem6.2");
  // A: 2*1*10 sqrt(log 1e6)/(0.5*1e4) = 0.01486769;  B: 3 sqrt(0.5) 20 sqrt(log 1e3)/(0.1*1e3) = 1.1150767.
  CHECK(m.rate(m.example) == Approx(0.01486769).epsilon(1e-6));
  CHECK(m.rate({{"lambda1", 3}, {"H_u", 0.5}, {"d", 20}, {"delta", 1e-3}, {"epsilon", 0.1}, {"B", 1e3}}) ==
        Approx(1.1150767).epsilon(1e-6));
  // B-condition: sqrt(10 log 1e6)/0.5 * log(10/(0.01*1e-6)) = 23.51 * 20.72 = 487.1.
  CHECK_FALSE(find_condition(m, "B-condition").holds(with(m.example, "B", 480)));
  CHECK(find_condition(m, "B-condition").holds(with(m.example, "B", 490)));
  CHECK_FALSE(find_condition(m, "delta <= 1/B").holds(with(m.example, "delta", 2e-4)));
  CHECK_FALSE(find_condition(m, "eps < 0.9").holds(with(m.example, "epsilon", 0.95)));
  // Without B, a standalone run's n is the batch; without either the rate cannot be read.
  CHECK(m.rate(with(without(m.example, "B"), "n", 1e4)) == Approx(m.rate(m.example)));
  CHECK_THROWS_WITH(m.rate(without(m.example, "B")), Catch::Contains("'n'"));
}

TEST_CASE("liu2022 Eq. (3): Analyze-Gauss", "[liu2022]") {
  const Theorem t = liu2022_theorem("liu2022.eq3");
  // A: 2 (sqrt(100/1e5) + 100^{3/2} sqrt(log 1e6)/(0.5*1e5)) = 0.2119224;
  // B: 4 (sqrt(50/1e5) + 50^{3/2} sqrt(log 1e3)/(0.1*1e5)) = 0.4611349.
  CHECK(t.rate(t.example) == Approx(0.2119224).epsilon(1e-6));
  CHECK(t.rate({{"n", 1e5}, {"d", 50}, {"epsilon", 0.1}, {"delta", 1e-3}, {"lambda1", 4}, {"lambda2", 3}}) ==
        Approx(0.4611349).epsilon(1e-6));
  // gap >= 1000 sqrt(log 1e6)/(0.5 n): 0.0743 at n = 1e5, 7.43 at n = 1e3.
  CHECK_FALSE(find_condition(t, "gap").holds(with(t.example, "n", 1e3)));
  CHECK(find_condition(t, "gap").holds(with(t.example, "n", 1e4)));
  CHECK_THROWS_WITH(t.rate(without(t.example, "delta")), Catch::Contains("'delta'"));
}

TEST_CASE("liu2022 Example 4.1: Private Oja plateaus, DP-PCA vanishes with sigma", "[liu2022]") {
  const Theorem o = liu2022_theorem("liu2022.ex4.1.private_oja");
  // A: 0.5 sqrt(10/1e6) + 10 sqrt(log 1e6)/(5e-3*1e6) = 9.014983e-3;  B: 0.1 sqrt(20/1e5) + 20 sqrt(log
  // 1e3)/1e4 = 6.670735e-3.
  CHECK(o.rate(o.example) == Approx(9.014983e-3).epsilon(1e-6));
  const Params b{{"n", 1e5}, {"d", 20}, {"epsilon", 0.1}, {"delta", 1e-3}, {"sigma", 0.1}};
  CHECK(o.rate(b) == Approx(6.670735e-3).epsilon(1e-6));
  CHECK_FALSE(find_condition(o, "sigma^2 < 1").holds(with(o.example, "sigma", 1)));
  CHECK(find_condition(o, "sigma^2 < 1").holds(with(o.example, "sigma", 0.99)));
  // Eq. (4) with kappa = 1.25 needs at least kappa M, which is 1.25e6 > n = 1e6 at M = 1e6.
  CHECK_FALSE(find_condition(o, "Eq. (4)").holds(with(o.example, "M", 1e6)));

  const Theorem p = liu2022_theorem("liu2022.ex4.1.dp_pca");
  // A: 0.5 (sqrt(10/1e7) + 10 sqrt(log 1e8)/(0.5*1e7)) = 5.042919e-4;  B: 0.1 (sqrt(20/1e5) + 20 sqrt(log
  // 1e3)/1e4) = 1.939866e-3.
  CHECK(p.rate(p.example) == Approx(5.042919e-4).epsilon(1e-6));
  CHECK(p.rate(b) == Approx(1.939866e-3).epsilon(1e-6));
  CHECK_FALSE(find_condition(p, "sigma^2 < 1").holds(with(p.example, "sigma", 1.5)));
  CHECK_THROWS_WITH(p.rate(without(p.example, "sigma")), Catch::Contains("'sigma'"));
}

TEST_CASE("liu2022 Cor 5.2 against Thm 5.3's rate shape: same n, d, eps dependence", "[liu2022]") {
  // The privacy-regime ratio of Cor 5.2 to Thm 5.3 is sqrt(lambda1/lambda2) sqrt(log(1/delta)): Cor 5.2's
  // privacy term over d/(eps n) must not move with n, d or eps.
  const Theorem t = liu2022_theorem("liu2022.cor5.2");
  auto privacy_part = [&](double n, double d, double eps) {
    const Params p{{"n", n}, {"d", d}, {"epsilon", eps}, {"delta", 1e-6}, {"lambda1", 2}, {"lambda2", 1}};
    return (t.rate(p) - 2 * std::sqrt(d / n)) / (d / (eps * n));
  };
  const double base = privacy_part(1e4, 20, 0.5);
  CHECK(privacy_part(1e6, 20, 0.5) == Approx(base));
  CHECK(privacy_part(1e4, 80, 0.5) == Approx(base));
  CHECK(privacy_part(1e4, 20, 0.05) == Approx(base));
  CHECK(base == Approx(2 * std::sqrt(std::log(1e6))));
}
