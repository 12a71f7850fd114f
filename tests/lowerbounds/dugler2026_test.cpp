// dugler2026 lower bounds (as cited in its Appendix D): rates, conditions, examples, and the Thm 7 = liu2022
// Thm 5.3 identity.
#include <catch2/catch.hpp>
#include <cmath>

#include "bounds/papers.hpp"
#include "core/errors.hpp"
#include "lowerbounds/papers.hpp"
#include "support/theorem_lookup.hpp"

using dpb::bounds::Params;
using dpb::bounds::Theorem;
using namespace dpb::test;

TEST_CASE("dugler2026 lower bounds: kinds, classes, examples", "[dugler2026]") {
  const auto all = dpb::lower::dugler2026_lower_bounds();
  REQUIRE(all.size() == 2);
  for (const auto& t : all) {
    INFO(t.id);
    CHECK(t.kind == dpb::bounds::Kind::lower);
    CHECK_FALSE(t.semantics.high_probability);
    check_catalogue_entry(t);
  }
}

TEST_CASE("dugler2026 Thm 7 is liu2022 Thm 5.3", "[dugler2026]") {
  const Theorem t = find_theorem(dpb::lower::dugler2026_lower_bounds(), "dugler2026.thm7");
  const Theorem liu = find_theorem(dpb::lower::liu2022_lower_bounds(), "liu2022.thm5.3");
  CHECK(t.setting == liu.setting);
  CHECK(t.applies == liu.applies);
  CHECK(t.rate(t.example) == liu.rate(t.example));
  CHECK((*t.explicit_value)(t.example) == (*liu.explicit_value)(t.example));
}

TEST_CASE("dugler2026 Thm 8: rate, delta condition, pairing with Cor 3", "[dugler2026]") {
  const Theorem t = find_theorem(dpb::lower::dugler2026_lower_bounds(), "dugler2026.thm8");
  // A: sqrt2 min(((1*2 + 1)/4)(sqrt(20/1e6) + 20 sqrt2/(1e6*1)), 1) = 4.7734165e-3.
  CHECK(t.rate(t.example) == Approx(4.7734165e-3).epsilon(1e-6));
  // B: k = 3, sigma = 0.5, lambda = 100: sqrt3 ((0.5*10 + 0.25)/100)(sqrt(30/1e5) + 30 sqrt3/(1e5*2))
  // = 1.5986250e-3.
  CHECK(t.rate({{"n", 1e5}, {"d", 30}, {"k", 3}, {"epsilon", 2}, {"lambda", 100}, {"sigma2", 0.25}}) ==
        Approx(1.5986250e-3).epsilon(1e-6));
  // C: capped: 1 * min(2 (sqrt(50/100) + 50/(100*0.1)), 1) = 1.
  CHECK(t.rate({{"n", 100}, {"d", 50}, {"k", 1}, {"epsilon", 0.1}, {"lambda", 1}, {"sigma2", 1}}) == 1);
  // delta <= exp(2 - 0.01 (sqrt(4e7) + 40)) = exp(-61.65): 1e-26 (log -59.9) fails, 1e-30 (log -69.1) holds.
  const auto& delta_condition = t.conditions.at(0);
  CHECK_FALSE(delta_condition.holds(with(t.example, "delta", 1e-26)));
  CHECK(delta_condition.holds(with(t.example, "delta", 1e-30)));
  CHECK_FALSE(delta_condition.holds(with(t.example, "c0", 1)));  // the bound drops to exp(-6362)
  CHECK_FALSE(t.conditions.at(1).holds(with(t.example, "k", 21)));
  CHECK_THROWS_WITH(t.rate({{"n", 100}, {"d", 50}, {"k", 1}, {"epsilon", 0.1}, {"lambda", 1}}),
                    Catch::Contains("'sigma2'"));
  const Theorem cor3 = find_theorem(dpb::bounds::dugler2026_upper_bounds(), "dugler2026.cor3");
  CHECK(cor3.setting == t.setting);
  CHECK(cor3.loss.name == t.loss.name);
  CHECK(cor3.loss.normalized_by_rank == t.loss.normalized_by_rank);
}
