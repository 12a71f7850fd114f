#include "verify/experiment/yaml_read.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"

using namespace dpb::verify;

TEST_CASE("typed reads accept what they document and blame the node otherwise", "[experiment]") {
  const YAML::Node root = YAML::Load("x: 2.5\ni: 3\nl: [1, 2]\ns: name\nb: true\nm: {k: 1}\n");
  const YamlSource source("r.yaml");
  const YamlReader read(source);
  CHECK(read.number(root["x"], "x") == 2.5);
  CHECK(read.integer(root["i"], "i", 0, 10) == 3);
  CHECK_THROWS_WITH(read.integer(root["x"], "x", 0, 10), "r.yaml:1:4: x must be an integer in [0, 10], got 2.5");
  CHECK(read.numbers(root["l"], "l") == std::vector<double>{1, 2});
  CHECK(read.numbers(root["x"], "x") == std::vector<double>{2.5});
  CHECK(read.texts(root["s"], "s") == std::vector<std::string>{"name"});
  CHECK(read.boolean(root["b"], "b"));
  CHECK_THROWS_WITH(read.number(root["s"], "s"), "r.yaml:4:4: s must be a finite number");
  CHECK_THROWS_WITH(read.text(root["m"], "m"), "r.yaml:6:4: m must be a single value, not a list or map");
  CHECK(std::get<double>(read.param_value(root["x"], "x")) == 2.5);
  CHECK(std::get<std::string>(read.param_value(root["s"], "s")) == "name");
  CHECK(std::get<std::vector<double>>(read.param_value(root["l"], "l")).size() == 2);
  CHECK_THROWS_WITH(read.require_map(root, "top", {"x", "i", "l", "s", "b"}),
                    "r.yaml:6:1: unknown key 'm' in top (known: x, i, l, s, b)");
  CHECK_THROWS_AS(read.require_sequence(root["m"], "m"), dpb::ConfigError);
}
