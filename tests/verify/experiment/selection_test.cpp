#include "verify/experiment/selection.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "tests/verify/checks/synthetic.hpp"
#include "verify/experiment/experiment_fixture.hpp"

using namespace dpb::verify;

namespace {

std::vector<std::string> labels(const ExperimentSpec& spec) {
  std::vector<std::string> all;
  for (const auto& a : spec.algorithms) all.push_back(a.label);
  return all;
}

// Algorithms: baseline.dp_gauss_2, baseline.nonprivate_pca, baseline.dp_gauss_1[clip_constant=2].
const std::string kThree = test::tiny_with("algorithms", "algorithms:\n  - baseline.dp_gauss_2");

}  // namespace

TEST_CASE("only patterns: globs on ids, [name=value] on resolved parameters", "[experiment]") {
  CHECK(labels(test::parse_text(kThree)).size() == 3);
  CHECK(labels(test::parse_text(kThree, {{}, {"baseline.dp_gauss_*"}})) ==
        std::vector<std::string>{"baseline.dp_gauss_2", "baseline.dp_gauss_1[clip_constant=2]"});
  CHECK(labels(test::parse_text(kThree, {{}, {"baseline.dp_gauss_?[clip_constant=2]"}})) ==
        std::vector<std::string>{"baseline.dp_gauss_1[clip_constant=2]"});
  // A default counts: dp_gauss_2 has clip_constant = 1 by default and calibration = analytic.
  CHECK(labels(test::parse_text(kThree, {{}, {"*[clip_constant=1,calibration=analytic]"}})) ==
        std::vector<std::string>{"baseline.dp_gauss_2"});
  // Several patterns: the union, in experiment order.
  CHECK(labels(test::parse_text(kThree, {{}, {"baseline.nonprivate_pca", "baseline.dp_gauss_2"}})).size() == 2);
}

TEST_CASE("an --only that selects nothing, or is malformed, is an error", "[experiment]") {
  CHECK_THROWS_WITH(test::parse_text(kThree, {{}, {"liu2022.*"}}),
                    Catch::Contains("--only 'liu2022.*' selects none of the algorithms of tiny"));
  CHECK_THROWS_AS(test::parse_text(kThree, {{}, {"baseline.dp_gauss_1[clip_constant=3]"}}), dpb::InvalidArgument);
  CHECK_THROWS_AS(parse_pattern("x[a=1"), dpb::InvalidArgument);
  CHECK_THROWS_AS(parse_pattern("[a=1]"), dpb::InvalidArgument);
  const auto p = parse_pattern("x.*[lambdas=[4,2],C2=4]");
  CHECK(p.glob == "x.*");
  CHECK(std::get<std::vector<double>>(p.required.values().at("lambdas")) == std::vector<double>{4, 2});
  CHECK(std::get<double>(p.required.values().at("C2")) == 4);
}

TEST_CASE("checks of dropped algorithms are dropped with them", "[experiment]") {
  ExperimentSpec spec = test::parse_text(kThree);
  spec.checks.push_back(dpb::test::check_spec("rate", "t", "baseline.dp_gauss_2", "sin", "n"));
  spec.checks.push_back(dpb::test::check_spec("consistency", "t", "", "", "", "u"));
  const auto used = keep_selected(spec, {parse_pattern("baseline.nonprivate_pca"), parse_pattern("nothing")});
  CHECK(used == std::vector<bool>{true, false});
  REQUIRE(spec.checks.size() == 1);
  CHECK(spec.checks[0].kind == "consistency");
}
