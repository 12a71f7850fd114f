#include "verify/theorems/gaps.hpp"

#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>
#include <cmath>

#include "bounds/params.hpp"
#include "core/errors.hpp"
#include "verify/theorem_fixtures.hpp"
#include "verify/theorems/bound_evaluation.hpp"

using dpb::bounds::Kind;
using dpb::bounds::Params;
using dpb::bounds::Theorem;
using dpb::test::synthetic_theorem;
using dpb::verify::Trend;

namespace {

double n_of(const Params& p) { return dpb::bounds::positive(p, "n"); }
double d_of(const Params& p) { return dpb::bounds::positive(p, "d"); }

const dpb::verify::VariableGap& variable(const dpb::verify::Gap& g, const std::string& name) {
  for (const auto& v : g.variables)
    if (v.variable == name) return v;
  FAIL("no variable " << name);
  throw;
}

bool has_variable(const dpb::verify::Gap& g, const std::string& name) {
  return std::any_of(g.variables.begin(), g.variables.end(),
                     [&](const auto& v) { return v.variable == name; });
}

}  // namespace

TEST_CASE("the slope of log(U/L) is the difference of the exponents", "[gaps]") {
  // U = d n^{-1/2}, L = n^{-1/2}: the gap is d^1 n^0. eps is in the example but neither rate reads it.
  const auto u =
      synthetic_theorem("demo.u", Kind::upper, [](const Params& p) { return d_of(p) / std::sqrt(n_of(p)); },
                        {{"n", 1000}, {"d", 16}, {"epsilon", 1}});
  const auto l =
      synthetic_theorem("demo.l", Kind::lower, [](const Params& p) { return 1 / std::sqrt(n_of(p)); });
  const auto g = dpb::verify::compare_bounds(u, l);
  CHECK(*g.at_base.ratio == Approx(16));
  CHECK(*variable(g, "d").slope == Approx(1).margin(1e-12));
  CHECK(variable(g, "d").trend == Trend::grows);
  CHECK(*variable(g, "n").slope == Approx(0).margin(1e-12));
  CHECK(variable(g, "n").trend == Trend::flat);
  CHECK(!has_variable(g, "epsilon"));
  CHECK(variable(g, "d").points.size() == dpb::verify::GapOptions{}.factors.size());
  for (const auto& p : variable(g, "d").points) CHECK(*p.ratio == Approx(p.value));

  // L = d^{3/2} n^{-1}: U/L = d^{-1/2} n^{1/2}.
  const auto l2 = synthetic_theorem("demo.l2", Kind::lower,
                                    [](const Params& p) { return std::pow(d_of(p), 1.5) / n_of(p); });
  const auto g2 = dpb::verify::compare_bounds(u, l2);
  CHECK(*variable(g2, "d").slope == Approx(-0.5).margin(1e-12));
  CHECK(variable(g2, "d").trend == Trend::shrinks);
  CHECK(*variable(g2, "n").slope == Approx(0.5).margin(1e-12));
  CHECK(variable(g2, "n").trend == Trend::grows);
}

TEST_CASE("a polylog factor shows as a small slope, read as flat", "[gaps]") {
  const auto u =
      synthetic_theorem("demo.u", Kind::upper,
                        [](const Params& p) { return std::log(n_of(p)) / std::sqrt(n_of(p)); }, {{"n", 1e4}});
  const auto l =
      synthetic_theorem("demo.l", Kind::lower, [](const Params& p) { return 1 / std::sqrt(n_of(p)); });
  const auto v = variable(dpb::verify::compare_bounds(u, l), "n");
  // The local slope of log(log n) is 1/ln n = 0.11 at n = 1e4: positive, under the tolerance.
  CHECK(*v.slope > 0.05);
  CHECK(*v.slope < dpb::verify::GapOptions{}.flat_tolerance);
  CHECK(v.trend == Trend::flat);
}

TEST_CASE("conditions are evaluated on both sides, failing points are marked and left out of the slope",
          "[gaps]") {
  // Below n = 1000 (outside U's condition) the ratio grows like n^2, above it like n^1.
  auto u = synthetic_theorem("demo.u", Kind::upper,
                             [](const Params& p) {
                               const double n = n_of(p);
                               return n < 1000 ? n * n / 1000 : n;
                             },
                             {{"n", 1000}, {"d", 20}});
  u.conditions = {dpb::test::at_least("n", 1000)};
  auto l = synthetic_theorem("demo.l", Kind::lower, [](const Params&) { return 1.0; });
  l.conditions = {dpb::test::at_least("d", 10)};
  const auto g = dpb::verify::compare_bounds(u, l);
  CHECK(g.at_base.failing.empty());
  const auto& n = variable(g, "n");
  CHECK(*n.slope == Approx(1).margin(1e-12));
  CHECK(!n.slope_ignores_conditions);
  CHECK(n.points[0].failing == std::vector<std::string>{"demo.u: n >= 1000"});
  CHECK(n.points[1].failing == std::vector<std::string>{"demo.u: n >= 1000"});
  CHECK(n.points[2].failing.empty());
  // d enters no rate, but the lower bound's condition on d is still checked.
  CHECK(!has_variable(g, "d"));

  // Where fewer than two points satisfy every condition, the slope uses them all and says so.
  l.conditions = {dpb::test::at_least("n", 4000)};
  const auto h = dpb::verify::compare_bounds(u, l);
  CHECK(!h.at_base.failing.empty());
  CHECK(variable(h, "n").slope_ignores_conditions);
  CHECK(variable(h, "n").slope.has_value());
  const auto text = dpb::verify::gaps_report({h}, dpb::verify::TableFormat::text);
  INFO(text);
  CHECK(text.find("demo.l: n >= 4000: at the base point and everywhere except n x4") != std::string::npos);
  // Observed: `gaps --paper cai2024` concluded "flat in delta, eps, ..." where the lower bound's delta
  // condition fails at every point. A conclusion drawn outside the conditions says so, with the least-squares
  // slope over all five points: log U/L = log(62.5, 250, 1000, 2000, 4000) against log(1/4 .. 4) gives 1.50.
  CHECK(text.find("=> no conclusion inside the theorems' conditions (no variable has two points where every "
                  "condition holds); outside them: grows in n (+1.50*)") != std::string::npos);
}

TEST_CASE("a point outside a theorem's domain has no ratio and names the parameter", "[gaps]") {
  const auto u = synthetic_theorem(
      "demo.u", Kind::upper,
      [](const Params& p) { return std::sqrt(std::log(1 / dpb::bounds::unit_interval(p, "delta"))); },
      {{"delta", 0.3}});
  const auto l = synthetic_theorem("demo.l", Kind::lower, [](const Params&) { return 1.0; });
  const auto g = dpb::verify::compare_bounds(u, l);
  const auto& delta = variable(g, "delta");
  REQUIRE(delta.points.size() == 5);
  CHECK(!delta.points[4].ratio);  // delta = 1.2
  REQUIRE(delta.points[4].failing.size() == 1);
  CHECK(delta.points[4].failing[0].find("'delta'") != std::string::npos);
  CHECK(delta.points[3].ratio);  // delta = 0.6
  CHECK(delta.slope.has_value());
}

TEST_CASE("counting parameters are scaled to whole numbers and slopes use the values taken", "[gaps]") {
  const auto u = synthetic_theorem("demo.u", Kind::upper, d_of, {{"d", 10}});
  const auto l = synthetic_theorem("demo.l", Kind::lower, [](const Params&) { return 1.0; });
  const auto g = dpb::verify::compare_bounds(u, l);
  const auto& d = variable(g, "d");
  CHECK(d.points[0].value == 3);  // round(2.5)
  CHECK(d.points[1].value == 5);
  CHECK(*d.slope == Approx(1).margin(1e-12));
}

TEST_CASE("the base point merges both examples, keeping the value that satisfies more conditions", "[gaps]") {
  const auto u = synthetic_theorem("demo.u", Kind::upper, n_of, {{"n", 10}, {"d", 5}});
  auto l =
      synthetic_theorem("demo.l", Kind::lower, [](const Params&) { return 1.0; }, {{"n", 2000}, {"epsilon", 1}});
  l.conditions = {dpb::test::at_least("n", 1000)};
  const auto g = dpb::verify::compare_bounds(u, l);
  CHECK(g.base == Params{{"n", 2000}, {"d", 5}, {"epsilon", 1}});
  CHECK(g.at_base.failing.empty());
  // Without a reason to switch, the upper bound's value stays.
  l.conditions.clear();
  CHECK(dpb::verify::compare_bounds(u, l).base.at("n") == 10);
}

TEST_CASE("pairs need the same loss and setting, mixed semantics are paired and marked", "[gaps]") {
  const auto rate = [](const Params&) { return 1.0; };
  const auto u = synthetic_theorem("demo.u", Kind::upper, rate);
  auto l = synthetic_theorem("demo.l", Kind::lower, rate);
  l.semantics = {false, 0};
  auto other_setting = synthetic_theorem("demo.u2", Kind::upper, rate);
  other_setting.setting = "demo.other";
  auto other_loss = synthetic_theorem("demo.u3", Kind::upper, rate);
  other_loss.loss.name = dpb::bounds::Loss::Name::projector_fro;
  auto no_setting = synthetic_theorem("demo.u4", Kind::upper, rate);
  no_setting.setting.clear();
  auto l_no_setting = l;
  l_no_setting.setting.clear();
  CHECK(dpb::verify::comparable(u, l));
  CHECK(!dpb::verify::comparable(l, u));
  CHECK(!dpb::verify::comparable(other_setting, l));
  CHECK(!dpb::verify::comparable(other_loss, l));
  CHECK(!dpb::verify::comparable(no_setting, l_no_setting));
  const auto gaps = dpb::verify::find_gaps({&u, &other_setting, &other_loss, &l});
  REQUIRE(gaps.size() == 1);
  CHECK(gaps[0].upper == &u);
  CHECK(gaps[0].lower == &l);
  CHECK(gaps[0].mixed_semantics);
}

TEST_CASE("the report says in which variables the gap grows, in text, md and json", "[gaps]") {
  const auto u =
      synthetic_theorem("demo.u", Kind::upper, [](const Params& p) { return d_of(p) / std::sqrt(n_of(p)); },
                        {{"n", 1000}, {"d", 16}});
  const auto l =
      synthetic_theorem("demo.l", Kind::lower, [](const Params& p) { return 1 / std::sqrt(n_of(p)); });
  const std::vector<dpb::verify::Gap> gaps = {dpb::verify::compare_bounds(u, l)};
  const auto text = dpb::verify::gaps_report(gaps, dpb::verify::TableFormat::text);
  CHECK(text.find("demo.u (upper) vs demo.l (lower)") != std::string::npos);
  CHECK(text.find("=> grows in d (+1.00); flat in n") != std::string::npos);
  const auto md = dpb::verify::gaps_report(gaps, dpb::verify::TableFormat::md);
  CHECK(md.find("| d | 16 | +1.00 | grows |") != std::string::npos);
  const auto j = nlohmann::json::parse(dpb::verify::gaps_report(gaps, dpb::verify::TableFormat::json));
  CHECK(j.at(0).at("variables").at(0).at("variable") == "d");
  CHECK(j.at(0).at("variables").at(0).at("slope").get<double>() == Approx(1));
  CHECK(j.at(0).at("mixed_semantics") == false);
  CHECK_THROWS_AS(dpb::verify::gaps_report(gaps, dpb::verify::TableFormat::tex), dpb::InvalidArgument);
  CHECK(dpb::verify::gaps_report({}, dpb::verify::TableFormat::text).find("no upper and lower") !=
        std::string::npos);
}

TEST_CASE("liu2022: Cor 5.2 matches Thm 5.3 in n, d, eps, Analyze-Gauss grows in d",
          "[gaps][liu2022][catalogue]") {
  const auto all = dpb::verify::all_theorems();
  const auto& lower = dpb::verify::find_theorem(all, "liu2022.thm5.3");
  const auto dp_pca = dpb::verify::compare_bounds(dpb::verify::find_theorem(all, "liu2022.cor5.2"), lower);
  for (const char* name : {"n", "d", "epsilon"}) {
    INFO(name);
    CHECK(variable(dp_pca, name).trend == Trend::flat);
  }
  // The sqrt(lambda1/lambda2) the paper names: slope +1/2 in lambda1 at fixed lambda2.
  CHECK(*variable(dp_pca, "lambda1").slope == Approx(0.5).margin(0.05));
  const auto analyze_gauss =
      dpb::verify::compare_bounds(dpb::verify::find_theorem(all, "liu2022.eq3"), lower);
  CHECK(variable(analyze_gauss, "d").trend == Trend::grows);
}
