// liu2022 lower bounds: rates against hand-computed values, conditions on both sides, example points,
// explicit values wired to the constructions, and the rate relations the `gaps` tool relies on.
#include <catch2/catch.hpp>
#include <cmath>

#include "bounds/papers.hpp"
#include "core/errors.hpp"
#include "lowerbounds/constructions/liu2022_explicit_bounds.hpp"
#include "lowerbounds/papers.hpp"
#include "support/theorem_lookup.hpp"

using dpb::bounds::Params;
using dpb::bounds::Theorem;
using namespace dpb::test;

namespace {

Theorem lower(const std::string& id) { return find_theorem(dpb::lower::liu2022_lower_bounds(), id); }
Theorem upper(const std::string& id) { return find_theorem(dpb::bounds::liu2022_upper_bounds(), id); }

}  // namespace

TEST_CASE("liu2022 lower bounds: kinds, classes, settings and examples", "[liu2022]") {
  for (const auto& t : dpb::lower::liu2022_lower_bounds()) {
    INFO(t.id);
    CHECK(t.kind == dpb::bounds::Kind::lower);
    CHECK(t.loss.name == dpb::bounds::Loss::Name::sin);
    CHECK_FALSE(t.semantics.high_probability);
    CHECK(t.explicit_value.has_value());
    check_catalogue_entry(t);
    CHECK((*t.explicit_value)(t.example) >= 0);
  }
  CHECK(lower("liu2022.thm5.3").applies == std::vector<std::string>{"(eps,0)-DP"});
  CHECK(lower("liu2022.thm5.4").applies == std::vector<std::string>{"(eps,delta)-DP"});
  CHECK(lower("liu2022.thmC.1").applies == std::vector<std::string>{"(eps,0)-DP"});
  // Thm 5.3 speaks about the same model and loss as the Gaussian upper bounds.
  CHECK(lower("liu2022.thm5.3").setting == upper("liu2022.cor5.2").setting);
  CHECK(lower("liu2022.thm5.3").setting == upper("liu2022.eq3").setting);
}

TEST_CASE("liu2022 Thm 5.3: rate and condition", "[liu2022]") {
  const Theorem t = lower("liu2022.thm5.3");
  // A: kappa = 2: 2 (sqrt(20/1e7) + 20/(0.5*1e7)) sqrt(1/2) = 2.0056569e-3.
  CHECK(t.rate(t.example) == Approx(2.0056569e-3).epsilon(1e-6));
  // B: kappa = 4: 4 (sqrt(50/1e5) + 50/(0.1*1e5)) sqrt(3/4) = 0.09478017;  C: capped at 1.
  CHECK(t.rate({{"n", 1e5}, {"d", 50}, {"epsilon", 0.1}, {"lambda1", 4}, {"lambda2", 3}}) ==
        Approx(0.09478017).epsilon(1e-6));
  CHECK(t.rate(with(t.example, "n", 100)) == 1);
  CHECK_FALSE(t.conditions.at(0).holds(with(t.example, "d", 10)));
  CHECK(t.conditions.at(0).holds(with(t.example, "d", 11)));
  CHECK_THROWS_WITH(t.rate({{"n", 1e5}, {"d", 50}, {"lambda1", 4}, {"lambda2", 3}}),
                    Catch::Contains("'epsilon'"));
  CHECK((*t.explicit_value)(t.example) == dpb::lower::liu2022_thm53_value(t.example));
}

TEST_CASE("liu2022 Thm 5.4: rate and conditions", "[liu2022]") {
  const Theorem t = lower("liu2022.thm5.4");
  // Example kappa from Eq. (30): alpha = min{(10 - 1)/1e4, log((1 - e^-1)/(4e-6 e))/1e4, 1} = 9e-4,
  // kappa = (1 - 9e-4 + 0.03)/0.03 = 34.30333; rate = kappa min(sqrt(min(20, log(0.632/1e-6))/1e4), 1)
  // = 1.2536841.
  CHECK(t.example.at("kappa") == Approx(34.30333).epsilon(1e-6));
  CHECK(t.rate(t.example) == Approx(1.2536841).epsilon(1e-6));
  // B: 5 sqrt(min(50, log((1 - e^-0.5)/1e-3))/(0.5*1e3)) = 0.5465804.
  CHECK(t.rate({{"n", 1e3}, {"d", 50}, {"epsilon", 0.5}, {"delta", 1e-3}, {"kappa", 5}}) ==
        Approx(0.5465804).epsilon(1e-6));
  CHECK_FALSE(t.conditions.at(0).holds(with(t.example, "d", 1)));
  // Eq. (30) needs delta < (1 - e^-1)/(4e) = 0.0581360.
  CHECK_FALSE(t.conditions.at(1).holds(with(t.example, "delta", 0.06)));
  CHECK(t.conditions.at(1).holds(with(t.example, "delta", 0.05)));
  CHECK_THROWS_WITH(t.rate({{"n", 1e3}, {"d", 50}, {"epsilon", 0.5}, {"delta", 1e-3}}),
                    Catch::Contains("'kappa'"));
}

TEST_CASE("liu2022 Thm C.1: rate and condition", "[liu2022]") {
  const Theorem t = lower("liu2022.thmC.1");
  // A: min(2*400/(1*1e4) sqrt(1/2), sqrt(1/2)) = 0.05656854;  B: min(4*2500/(0.5*1e6) sqrt(3/4), sqrt(3/4)) =
  // 0.01732051.
  CHECK(t.rate(t.example) == Approx(0.05656854).epsilon(1e-6));
  CHECK(t.rate({{"n", 1e6}, {"d", 50}, {"epsilon", 0.5}, {"lambda1", 4}, {"lambda2", 3}}) ==
        Approx(0.01732051).epsilon(1e-6));
  CHECK(t.rate(with(t.example, "n", 10)) == Approx(std::sqrt(0.5)));
  CHECK_FALSE(t.conditions.at(0).holds(with(t.example, "d", 9)));
  CHECK_THROWS_WITH(t.rate({{"n", 1e6}, {"d", 50}, {"epsilon", 0.5}, {"lambda1", 4}}),
                    Catch::Contains("'lambda2'"));
}

TEST_CASE("liu2022 gaps: Cor 5.2 / Thm 5.3 flat in n, d, eps, Eq. (3) / Thm 5.3 grows in d", "[liu2022]") {
  const Theorem cor = upper("liu2022.cor5.2"), eq3 = upper("liu2022.eq3"), lb = lower("liu2022.thm5.3");
  // In the privacy regime both rates are d/(eps n) terms: the ratio is sqrt(lambda1/lambda2)
  // sqrt(log(1/delta)). Here d/(eps n) = 0.1 is ten times sqrt(d/n) = 0.01, and Thm 5.3's rate 0.156 is below
  // its cap.
  const Params privacy{{"n", 1e6},      {"d", 100},     {"epsilon", 1e-3},
                       {"delta", 1e-6}, {"lambda1", 2}, {"lambda2", 1}};
  auto ratio = [&](const Theorem& u, const Params& p) { return u.rate(p) / lb.rate(p); };
  const double base = ratio(cor, privacy);
  // The sqrt(d/n) terms make it move by less than the two regimes' ratio 1 to sqrt(log(1/delta)) = 3.7.
  for (const auto& [name, factor] :
       std::vector<std::pair<std::string, double>>{{"n", 2}, {"d", 2}, {"epsilon", 0.5}}) {
    INFO(name);
    const double moved = ratio(cor, with(privacy, name, privacy.at(name) * factor));
    CHECK(std::abs(std::log(moved / base)) < 0.1);
  }
  // Eq. (3)'s privacy term is d^{3/2}: doubling d multiplies the ratio by nearly sqrt 2.
  const double grow = ratio(eq3, with(privacy, "d", 200)) / ratio(eq3, privacy);
  CHECK(grow > 1.3);
}
