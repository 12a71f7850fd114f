#include "verify/checks/consistency_check.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "bounds/params.hpp"
#include "tests/verify/checks/synthetic.hpp"

using dpb::bounds::Kind;
using dpb::bounds::Params;
using dpb::verify::VerdictStatus;

namespace {

// A theorem with rate d^a / n on the synthetic setting, example point n = 1000, d = 10.
dpb::bounds::Theorem theorem(const std::string& id, Kind kind, double a) {
  dpb::bounds::Theorem t;
  t.id = id;
  t.kind = kind;
  t.setting = std::string("synthetic");
  t.rate = [a](const Params& p) {
    return std::pow(dpb::bounds::param(p, "d"), a) / dpb::bounds::param(p, "n");
  };
  t.example = {{"n", 1000}, {"d", 10}};
  return t;
}

dpb::verify::Verdict consistency(const dpb::bounds::Theorem& u, const dpb::bounds::Theorem& l) {
  return dpb::verify::check_consistency(dpb::test::check_spec("consistency", u.id, "", "", "", l.id), u, l,
                                        {});
}

}  // namespace

TEST_CASE("consistency: a constant gap passes and grows in no variable", "[checks][consistency]") {
  auto u = theorem("U", Kind::upper, 1);
  const auto base_rate = u.rate;
  u.rate = [base_rate](const Params& p) { return 3 * base_rate(p); };
  const auto v = consistency(u, theorem("L", Kind::lower, 1));
  CHECK(v.status == VerdictStatus::pass);
  CHECK(v.figures["gap_grows"].empty());
  CHECK(v.figures["falls"].empty());
}

TEST_CASE("consistency: a gap growing in d passes and names d", "[checks][consistency]") {
  // U / L = sqrt(d): bounded below (d >= 1), growing with d at slope +1/2.
  const auto v = consistency(theorem("U", Kind::upper, 1), theorem("L", Kind::lower, 0.5));
  CHECK(v.status == VerdictStatus::pass);
  REQUIRE(v.figures["gap_grows"].size() == 1);
  CHECK(v.figures["gap_grows"][0].get<std::string>().find("d (as it grows") == 0);
  CHECK(double(v.figures["variables"]["d"]["slope"]) == Approx(0.5).epsilon(1e-9));
  CHECK(v.figures["variables"]["d"]["open_below"] == false);  // d stops at its natural floor 1
  CHECK(v.summary.find("grows in d") != std::string::npos);
}

TEST_CASE("consistency: an upper bound below the lower bound for large d fails, unless the domain ends",
          "[checks][consistency]") {
  // U / L = d^(-1/2) -> 0 as d -> infinity.
  const auto u = theorem("U", Kind::upper, 0.5), l = theorem("L", Kind::lower, 1);
  const auto v = consistency(u, l);
  CHECK(v.status == VerdictStatus::fail);
  REQUIRE(v.figures["falls"].size() == 1);
  CHECK(v.figures["falls"][0] == "d -> infinity");
  // With the condition d <= n the ratio stays >= n^(-1/2) on the domain: no contradiction.
  auto bounded = u;
  bounded.conditions.push_back({"d <= n", "d <= n", [](const Params& p) {
                                  return dpb::bounds::param(p, "d") <= dpb::bounds::param(p, "n");
                                }});
  CHECK(consistency(bounded, l).status == VerdictStatus::pass);
}

TEST_CASE("consistency: compares rates only, never evaluating an explicit value", "[checks][consistency]") {
  // An explicit value may build a construction (a packing in dimension d): far too costly per point.
  int evaluations = 0;
  auto l = theorem("L", Kind::lower, 1);
  l.explicit_value = [&evaluations](const Params&) { return double(++evaluations); };
  CHECK(consistency(theorem("U", Kind::upper, 1), l).status == VerdictStatus::pass);
  CHECK(evaluations == 0);
}

TEST_CASE("consistency: pairs that are not an upper and a lower bound on one loss are inconclusive",
          "[checks][consistency]") {
  const auto u = theorem("U", Kind::upper, 1);
  CHECK_THROWS_AS(consistency(u, theorem("U2", Kind::upper, 1)), dpb::verify::Inconclusive);
  auto other_loss = theorem("L", Kind::lower, 1);
  other_loss.loss.name = dpb::bounds::Loss::Name::cov_op;
  CHECK_THROWS_AS(consistency(u, other_loss), dpb::verify::Inconclusive);
  auto outside = theorem("L", Kind::lower, 1);
  outside.conditions.push_back({"never", "never", [](const Params&) { return false; }});
  CHECK_THROWS_WITH(consistency(u, outside), Catch::Contains("example point"));
}
