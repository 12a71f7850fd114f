#include "verify/experiment/yaml_source.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"

using namespace dpb::verify;

TEST_CASE("a node's location is file:line:column, or the --set assignment it came from", "[experiment]") {
  const YAML::Node root = YAML::Load("a: 1\nb:\n  c: [1, 2]\n");
  YamlSource source("f.yaml");
  CHECK(source.where(root["b"]["c"]) == "f.yaml:3:6");
  CHECK(source.where(root["b"]["c"][1]) == "f.yaml:3:10");
  const YAML::Node value = YAML::Load("[3, 4]");
  source.add_override(value, "grid.n=[3, 4]");
  CHECK(source.where(value[0]) == "--set 'grid.n=[3, 4]'");
  CHECK(source.where(root["a"]) == "f.yaml:1:4");
  CHECK_THROWS_WITH(source.fail(root["a"], "bad"), "f.yaml:1:4: bad");
  CHECK_THROWS_AS(source.fail(root["a"], "bad"), dpb::ConfigError);
}
