// dugler2026 upper bounds: every rate against values computed by hand from the printed formulas, every
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

Theorem theorem(const std::string& id) { return find_theorem(dpb::bounds::dugler2026_upper_bounds(), id); }

}  // namespace

TEST_CASE("dugler2026 upper bounds: ids, kinds, settings and examples", "[dugler2026]") {
  const auto all = dpb::bounds::dugler2026_upper_bounds();
  for (const auto& t : all) {
    INFO(t.id);
    CHECK(t.kind == dpb::bounds::Kind::upper);
    // Theorem 5 bounds PRIVRANGE's released statistic, the others the subspace.
    CHECK(t.loss.name == (t.id == "dugler2026.thm5" ? dpb::bounds::Loss::Name::statistic
                                                    : dpb::bounds::Loss::Name::projector_fro));
    CHECK_FALSE(t.loss.normalized_by_rank);
    CHECK(t.semantics.high_probability);
    check_catalogue_entry(t);
  }
  CHECK(unique_ids(all) == std::set<std::string>{"dugler2026.thm9", "dugler2026.thm1", "dugler2026.thm2",
                                                 "dugler2026.thm3", "dugler2026.thm5", "dugler2026.cor2",
                                                 "dugler2026.cor3", "dugler2026.cor4"});
}

TEST_CASE("dugler2026 Thm 9: non-private Oja", "[dugler2026]") {
  const Theorem t = theorem("dugler2026.thm9");
  // M/(gap sqrt n): A 50/sqrt(1e9) = 1.5811388e-3;  B 10/(2 sqrt(1e6)) = 5e-3.
  CHECK(t.rate(t.example) == Approx(1.5811388e-3).epsilon(1e-6));
  CHECK(t.rate({{"M", 10}, {"gap", 2}, {"n", 1e6}}) == Approx(5e-3));
  // n >= 2 k M^2/(zeta^2 gap^2) = 2*2*2500/1e-4 = 1e8.
  CHECK_FALSE(find_condition(t, "sample size").holds(with(t.example, "n", 9e7)));
  CHECK(find_condition(t, "sample size").holds(with(t.example, "n", 1e8)));
  CHECK_THROWS_WITH(t.rate(without(t.example, "gap")), Catch::Contains("'gap'"));
}

TEST_CASE("dugler2026 Thm 1: Private Oja's with a fixed radius", "[dugler2026]") {
  const Theorem t = theorem("dugler2026.thm1");
  // A: 2 sqrt(2*20)/(1 sqrt(1e9)) + 2 (1*1.5 + 1) 2*20/(1*1*1e9) = 4.0e-4 + 2e-7 = 4.002e-4.
  CHECK(t.rate(t.example) == Approx(4.002e-4).epsilon(1e-5));
  // B: 3 sqrt(1*4)/(0.5*1e3) + 3 (2*1 + 1) 1*10/(0.5*0.5*1e6) = 0.012 + 3.6e-4 = 0.01236.
  const Params b{{"n", 1e6},   {"d", 10}, {"k", 1}, {"epsilon", 0.5}, {"lambda1", 3},
                 {"gap", 0.5}, {"V", 4},  {"K", 2}, {"gamma", 1}};
  CHECK(t.rate(b) == Approx(0.01236).epsilon(1e-6));
  // max{4*4*20/1e-4, 2*50/0.01, 2*2.5*2^{3/2}*20/0.01} = max{3.2e6, 1e4, 28284}.
  CHECK_FALSE(find_condition(t, "sample size").holds(with(t.example, "n", 3.1e6)));
  CHECK(find_condition(t, "sample size").holds(with(t.example, "n", 3.2e6)));
  CHECK_FALSE(find_condition(t, "eps <= 1").holds(with(t.example, "epsilon", 1.01)));
  CHECK_THROWS_WITH(t.rate(without(t.example, "lambda1")), Catch::Contains("'lambda1'"));
}

TEST_CASE("dugler2026 Thm 2: ADADPO", "[dugler2026]") {
  const Theorem t = theorem("dugler2026.thm2");
  // A: 4.0e-4 + sqrt2*50/(1*1e9) + 2*1*20*2*1.5/(1*1*1e9) = 4.0e-4 + 7.07e-8 + 1.2e-7 = 4.0019071e-4.
  CHECK(t.rate(t.example) == Approx(4.0019071e-4).epsilon(1e-6));
  // B: 0.012 + 1*5/(0.5*1e6) + 3*2*10*1*1/(0.5*0.5*1e6) = 0.012 + 1e-5 + 2.4e-4 = 0.01225.
  const Params b{{"n", 1e6},   {"d", 10}, {"k", 1}, {"epsilon", 0.5}, {"lambda1", 3},
                 {"gap", 0.5}, {"V", 4},  {"K", 2}, {"gamma", 1}, {"M", 5}};
  CHECK(t.rate(b) == Approx(0.01225).epsilon(1e-6));
  CHECK_FALSE(find_condition(t, "sample size").holds(with(t.example, "n", 3.1e6)));
  // At eps = 1e-4 the d k/eps = 4e5 entry is beaten by lambda1 K gamma k^{3/2} d/(eps zeta gap) = 1.7e8.
  CHECK_FALSE(find_condition(t, "sample size").holds(with(with(t.example, "epsilon", 1e-4), "n", 1.6e8)));
  CHECK(find_condition(t, "sample size").holds(with(with(t.example, "epsilon", 1e-4), "n", 1.8e8)));
  CHECK_THROWS_WITH(t.rate(without(t.example, "M")), Catch::Contains("'M'"));
}

TEST_CASE("dugler2026 Thm 3 and Cor 3: TADADPO", "[dugler2026]") {
  const Theorem t = theorem("dugler2026.thm3");
  // A: sqrt2*3/(1 sqrt 1e7) + sqrt2*50/(1*1e7) + 1*1*20*2/(1*1*1e7) = 1.3527119e-3.
  CHECK(t.rate(t.example) == Approx(1.3527119e-3).epsilon(1e-6));
  // B: 1/(2 sqrt 1e5) + 10/(2*1e5) + 2*0.5*10/(2*0.5*1e5) = 1.5811388e-3 + 5e-5 + 1e-4 = 1.7311388e-3.
  const Params b{{"n", 1e5}, {"d", 10}, {"k", 1},    {"epsilon", 0.5},  {"gap", 2},
                 {"K", 2},   {"v0", 1}, {"g0", 0.5}, {"M_perp", 10}};
  CHECK(t.rate(b) == Approx(1.7311388e-3).epsilon(1e-6));
  // max{(20 + 40)/1, 2*9/1, sqrt2*50/1, 1*1*40/1} = 70.71.
  CHECK_FALSE(find_condition(t, "sample size").holds(with(t.example, "n", 70)));
  CHECK(find_condition(t, "sample size").holds(with(t.example, "n", 71)));
  CHECK_THROWS_WITH(t.rate(without(t.example, "v0")), Catch::Contains("'v0'"));

  const Theorem c = theorem("dugler2026.cor3");
  // A: sqrt(5*1)/4 (sqrt(40/1e6) + 1*40/(1*1e6)) + sqrt2*50/(4*1e6) = 3.5755723e-3.
  CHECK(c.rate(c.example) == Approx(3.5755723e-3).epsilon(1e-6));
  // B: sqrt(1.25*0.25)/1 (sqrt(10/1e4) + 2*10/(0.5*1e4)) + 1*5/(1*1e4) = 0.02041374.
  const Params cb{{"n", 1e4},    {"d", 10},        {"k", 1}, {"epsilon", 0.5},
                  {"lambda", 1}, {"sigma2", 0.25}, {"K", 2}, {"M_perp", 5}};
  CHECK(c.rate(cb) == Approx(0.02041374).epsilon(1e-6));
  // Lemma 19 at lambda1 = 5: v0 = 10, v1 = 5 sqrt2, g0 = sqrt5, g1 = 5:
  // max{60, 2*(100+50)/16, sqrt2*50/4, (sqrt5 + 5)*40/4} = 72.36.
  CHECK_FALSE(find_condition(c, "sample size").holds(with(c.example, "n", 72)));
  CHECK(find_condition(c, "sample size").holds(with(c.example, "n", 73)));
  CHECK_THROWS_WITH(c.rate(without(c.example, "sigma2")), Catch::Contains("'sigma2'"));
}

TEST_CASE("dugler2026 Cor 4: ADADPO on spiked Gaussian data, Theorem 2's condition with the proof's V and gamma",
          "[dugler2026]") {
  const Theorem t = theorem("dugler2026.cor4");
  CHECK(t.applies == std::vector<std::string>{"dugler2026.adadpo"});
  CHECK(t.setting == "dugler2026.spiked_gaussian");
  // lambda1 = 4 + 1 = 5, Delta = 4: 5 sqrt(2*20)/(4 sqrt(1e9)) + 1*20*2*5/(1*4*1e9) = 2.5e-4 + 5e-8.
  CHECK(t.rate(t.example) == Approx(2.5005e-4).epsilon(1e-9));
  // V = (5 + 2*4 + 20*1)/5 = 6.6, gamma = sqrt 2: max{4*25*6.6/(1e-4*16) = 412500, 2*560/(0.01*4) = 28000,
  // 5*sqrt2*2^{3/2}*20/(0.01*4) = 10000, 40, 20} = 412500.
  CHECK_FALSE(find_condition(t, "sample size").holds(with(t.example, "n", 412499)));
  CHECK(find_condition(t, "sample size").holds(with(t.example, "n", 412501)));
  // Theorem 2 at the same lambda1, Delta, V and gamma needs the same n: Cor 4 is Thm 2 with the proof's values.
  const Theorem thm2 = theorem("dugler2026.thm2");
  Params as_thm2 = t.example;
  as_thm2["lambda1"] = 5, as_thm2["gap"] = 4, as_thm2["V"] = 6.6, as_thm2["gamma"] = std::sqrt(2.0);
  CHECK(find_condition(thm2, "sample size").holds(with(as_thm2, "n", 412501)));
  CHECK_FALSE(find_condition(thm2, "sample size").holds(with(as_thm2, "n", 412499)));
  CHECK_THROWS_WITH(find_condition(t, "sample size").holds(without(t.example, "M")), Catch::Contains("'M'"));
}

TEST_CASE("dugler2026 Cor 2: ADADPO on the rank-k spiked model, Theorem 2's condition with the proof's constants",
          "[dugler2026]") {
  const Theorem t = theorem("dugler2026.cor2");
  CHECK(t.applies == std::vector<std::string>{"dugler2026.adadpo"});
  CHECK(t.setting == "dugler2026.rank_k_spiked");
  // mu_1 = 2 + 2 * 0.25 = 2.5, Delta = 1: 0.5 sqrt(2.5 * 2 * 20)/sqrt(1e9) + 1 * 20 * 2 * 0.5 sqrt(2.5)/1e9.
  CHECK(t.rate(t.example) == Approx(0.5 * 10 / std::sqrt(1e9) + 20 * std::sqrt(2.5) / 1e9).epsilon(1e-12));
  // V = 20 * 0.25 / 2.5 = 2, gamma = sqrt(0.1): max{4 * 6.25 * 2/1e-4 = 500000, 2 * 200/0.01 = 40000,
  // 2.5 sqrt(0.1) 2^{3/2} 20/0.01 = 4472, 40, 20} = 500000.
  CHECK_FALSE(find_condition(t, "sample size").holds(with(t.example, "n", 499999)));
  CHECK(find_condition(t, "sample size").holds(with(t.example, "n", 500001)));
  // The privacy term vanishes with sigma (the paper's remark), the statistical one too.
  CHECK(t.rate(with(t.example, "sigma2", 1e-12)) < 1e-9);
  CHECK_THROWS_WITH(t.rate(without(t.example, "lambda")), Catch::Contains("'lambda'"));
}

TEST_CASE("dugler2026 Thm 5: PRIVRANGE's containment [Lambda(Q), C_Lambda Lambda(Q)] and its block-size condition",
          "[dugler2026]") {
  const Theorem t = theorem("dugler2026.thm5");
  CHECK(t.applies == std::vector<std::string>{"dugler2026.priv_range"});
  CHECK(t.rate(t.example) == 0.125);  // the scale is Lambda(Q) itself
  // On Lhat / Lambda(Q): [1, 2^{3/2}] (the proof's bins), C_Lambda a parameter.
  REQUIRE(t.explicit_value);
  REQUIRE(t.explicit_floor);
  CHECK((*t.explicit_floor)(t.example) == 1);
  CHECK((*t.explicit_value)(t.example) == Approx(2 * std::sqrt(2.0)));
  CHECK((*t.explicit_value)(with(t.example, "C_Lambda", 4)) == 4);
  // m = ceil(4 log(1/(1e-6 * 0.01))/1) = ceil(73.68) = 74 blocks; b = floor(n/148) >= 10 log(2 * 74/0.01) = 96.02,
  // so b = 97 (n = 14356) is the first inside and b = 96 (n = 14355) is not.
  const auto& block = find_condition(t, "block size");
  CHECK(block.holds(with(t.example, "n", 14356)));
  CHECK_FALSE(block.holds(with(t.example, "n", 14355)));
  // C_n scales the requirement: at C_n = 19, b >= 1824.4, n >= 148 * 1825.
  const Params strict = with(t.example, "C_n", 19);
  CHECK(block.holds(with(strict, "n", 148 * 1825)));
  CHECK_FALSE(block.holds(with(strict, "n", 148 * 1825 - 1)));
  CHECK_THROWS_WITH(block.holds(without(t.example, "C1")), Catch::Contains("'C1'"));
  CHECK_THROWS_WITH(t.rate(without(t.example, "Lambda_Q")), Catch::Contains("'Lambda_Q'"));
}
