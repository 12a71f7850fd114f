#include "verify/theorems/bound_evaluation.hpp"

#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>
#include <cmath>

#include "bounds/params.hpp"
#include "core/errors.hpp"
#include "verify/theorem_fixtures.hpp"

using dpb::bounds::Kind;
using dpb::bounds::Params;
using dpb::test::synthetic_theorem;

namespace {

// sqrt(d/n) + d/(eps n): the shape of the papers' rates, with a condition on each side of a point.
dpb::bounds::Theorem demo_bound() {
  auto t = synthetic_theorem("demo2020.thm1", Kind::lower,
                             [](const Params& p) {
                               const double n = dpb::bounds::positive(p, "n"),
                                            d = dpb::bounds::positive(p, "d");
                               return std::sqrt(d / n) + d / (dpb::bounds::positive(p, "epsilon") * n);
                             },
                             {{"n", 400}, {"d", 4}, {"epsilon", 0.5}});
  t.conditions = {dpb::test::at_least("n", 100), dpb::test::at_least("d", 10)};
  t.explicit_value = [](const Params& p) { return 0.1 / std::sqrt(dpb::bounds::positive(p, "n")); };
  return t;
}

}  // namespace

TEST_CASE("nearest ids come nearest first, ties in the given order", "[bound_evaluation]") {
  const std::vector<std::string> ids = {"x.thm5.3", "x.thm5.1", "x.cor5.2", "y.thm1"};
  CHECK(dpb::verify::nearest(ids, "x.thm5.2", 2) == std::vector<std::string>{"x.thm5.3", "x.thm5.1"});
  CHECK(dpb::verify::nearest(ids, "x.cor5", 1) == std::vector<std::string>{"x.cor5.2"});
  CHECK(dpb::verify::nearest(ids, "z", 10).size() == ids.size());
}

TEST_CASE("an unknown theorem id suggests the nearest ids", "[bound_evaluation]") {
  const auto a = synthetic_theorem("demo2020.thm5.3", Kind::lower, [](const Params&) { return 1.0; });
  const auto b = synthetic_theorem("demo2020.cor5.2", Kind::upper, [](const Params&) { return 1.0; });
  const dpb::verify::TheoremList all = {&a, &b};
  CHECK(&dpb::verify::find_theorem(all, "demo2020.cor5.2") == &b);
  CHECK_THROWS_AS(dpb::verify::find_theorem(all, "demo2020.cor52"), dpb::InvalidArgument);
  CHECK_THROWS_WITH(dpb::verify::find_theorem(all, "demo2020.cor52"),
                    Catch::StartsWith("unknown theorem 'demo2020.cor52': did you mean demo2020.cor5.2,"));
  CHECK_THROWS_WITH(dpb::verify::find_theorem({}, "x"), Catch::Contains("no theorems"));
}

TEST_CASE("a bound is evaluated with its rate, each condition and the explicit value", "[bound_evaluation]") {
  const auto t = demo_bound();
  const Params at{{"n", 400}, {"d", 4}, {"epsilon", 0.5}};
  const auto e = dpb::verify::evaluate_bound(t, at);
  CHECK(e.rate == Approx(std::sqrt(4.0 / 400) + 4.0 / (0.5 * 400)));
  REQUIRE(e.conditions.size() == 2);
  CHECK(e.conditions[0].holds);   // n = 400 >= 100
  CHECK(!e.conditions[1].holds);  // d = 4 < 10
  CHECK(!e.all_conditions_hold());
  REQUIRE(e.explicit_value);
  CHECK(*e.explicit_value == Approx(0.1 / 20));
  // gaps needs only the rate: the explicit value (a construction, for real lower bounds) can be skipped.
  CHECK(!dpb::verify::evaluate_bound(t, at, dpb::verify::ExplicitValue::skip).explicit_value);

  const auto text = dpb::verify::to_text(e);
  CHECK(text.find("[holds] n >= 100") != std::string::npos);
  CHECK(text.find("[FAILS] d >= 10") != std::string::npos);
  CHECK(text.find("1 of 2 conditions fail") != std::string::npos);
  const auto j = dpb::verify::to_json(e);
  CHECK(j.at("rate_value") == e.rate);
  CHECK(j.at("explicit_value") == *e.explicit_value);
  CHECK(j.at("conditions").at(1).at("holds") == false);
  CHECK(j.at("all_conditions_hold") == false);
  CHECK(j.at("params").at("d") == 4);

  const auto inside = dpb::verify::evaluate_bound(t, {{"n", 400}, {"d", 16}, {"epsilon", 0.5}});
  CHECK(inside.all_conditions_hold());
  CHECK(dpb::verify::to_text(inside).find("all conditions hold") != std::string::npos);
}

TEST_CASE("a two-sided containment shows its floor beside the explicit value", "[bound_evaluation]") {
  // dugler2026 Theorem 5: Lhat / Lambda(Q) in [1, 2^{3/2}].
  const auto& t = dpb::verify::find_theorem(dpb::verify::all_theorems(), "dugler2026.thm5");
  const auto e = dpb::verify::evaluate_bound(t, t.example);
  REQUIRE(e.explicit_floor);
  CHECK(*e.explicit_floor == 1);
  CHECK(dpb::verify::to_text(e).find("explicit    [1, 2.82843]") != std::string::npos);
  CHECK(dpb::verify::to_json(e).at("explicit_floor") == 1);
  CHECK(!dpb::verify::to_json(dpb::verify::evaluate_bound(t, t.example, dpb::verify::ExplicitValue::skip))
             .contains("explicit_floor"));
}

TEST_CASE("missing or out-of-domain parameters are named, with the theorem", "[bound_evaluation]") {
  const auto t = demo_bound();
  CHECK_THROWS_WITH(dpb::verify::evaluate_bound(t, {{"n", 400}, {"d", 4}}),
                    Catch::StartsWith("demo2020.thm1: ") && Catch::Contains("'epsilon'"));
  CHECK_THROWS_WITH(dpb::verify::evaluate_bound(t, {{"n", 400}, {"d", 4}, {"epsilon", -1}}),
                    Catch::Contains("'epsilon'") && Catch::Contains("> 0"));
  auto infinite = synthetic_theorem("demo2020.thm2", Kind::upper, [](const Params&) { return INFINITY; });
  CHECK_THROWS_WITH(dpb::verify::evaluate_bound(infinite, {}), Catch::Contains("not finite"));
}

TEST_CASE("bound --example starts from the example point, given values override it", "[bound_evaluation]") {
  const auto t = demo_bound();
  const auto p = dpb::verify::over_example(t, {{"d", 16}, {"zeta", 0.1}});
  CHECK(p == Params{{"n", 400}, {"d", 16}, {"epsilon", 0.5}, {"zeta", 0.1}});
  CHECK(dpb::verify::over_example(t, {}) == t.example);
}

TEST_CASE("every catalogue theorem evaluates at its example point, where its conditions hold",
          "[bound_evaluation][catalogue]") {
  for (const auto* t : dpb::verify::all_theorems()) {
    INFO(t->id);
    const auto e = dpb::verify::evaluate_bound(*t, t->example);
    CHECK(std::isfinite(e.rate));
    for (const auto& c : e.conditions) {
      INFO(c.name);
      CHECK(c.holds);
    }
  }
}
