#include "verify/experiment/overrides.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "verify/experiment/experiment_fixture.hpp"

using namespace dpb::verify;

TEST_CASE("set edits the YAML before validation", "[experiment]") {
  const auto spec = test::parse_text(test::kTinyExperiment,
                                     {{"grid.n=[1000,2000,4000]", "trials=5", "model.lambda=8", "privacy.epsilon=0.5"}, {}});
  CHECK(spec.grid[0].values[0] == std::vector<double>{1000, 2000, 4000});
  CHECK(spec.trials == 5);
  CHECK(std::get<double>(spec.model_params.values().at("lambda")) == 8);
  CHECK(spec.privacy.epsilon == 0.5);
  // A new axis: maps on the path are created.
  const auto swept = test::parse_text(test::kTinyExperiment, {{"grid.epsilon=[0.5,1]"}, {}});
  CHECK(swept.grid.size() == 2);
}

TEST_CASE("a bad --set value is blamed on the assignment, a malformed one is refused", "[experiment]") {
  CHECK(test::parse_error(test::kTinyExperiment, {{"trials=lots"}, {}}) == "--set 'trials=lots': trials must be a finite number");
  CHECK_THAT(test::parse_error(test::kTinyExperiment, {{"grid.m=[1]"}, {}}), Catch::StartsWith("--set 'grid.m=[1]': unknown key 'm' in grid"));
  YamlSource source("f.yaml");
  YAML::Node root = YAML::Load("a: 1\n");
  CHECK_THROWS_AS(apply_set(root, "a", source), dpb::InvalidArgument);
  CHECK_THROWS_AS(apply_set(root, "=1", source), dpb::InvalidArgument);
  CHECK_THROWS_AS(apply_set(root, "a..b=1", source), dpb::InvalidArgument);
  CHECK_THROWS_AS(apply_set(root, "a.b=1", source), dpb::InvalidArgument);  // a is a number, not a map
  CHECK_THROWS_AS(apply_set(root, "a=[1", source), dpb::InvalidArgument);
}
