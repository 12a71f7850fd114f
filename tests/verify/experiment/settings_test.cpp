#include "verify/experiment/settings.hpp"

#include <catch2/catch.hpp>
#include <map>

#include "core/errors.hpp"

using namespace dpb::verify;

TEST_CASE("run settings survive a round trip through JSON", "[experiment]") {
  RunSettings s;
  s.seed = 42;
  s.checks.push_back({"slope", "t.1", "a[x=1]", "sin", "n", "", 0.25, true, {{"M", 50}, {"lr_mult", 0.75}}});
  s.checks.push_back({"consistency", "t.1", "", "", "", "t.2", 0.1, false, {}});
  s.report.tables.push_back({"n", "algorithm", "median_iqr", {"sin"}});
  s.report.figures.push_back({"epsilon", "sin", false, true, "t.1"});
  const RunSettings back = settings_from_json(nlohmann::json::parse(to_json(s).dump()));
  CHECK(back.seed == 42);
  REQUIRE(back.checks.size() == 2);
  CHECK(to_json(back.checks[0]) == to_json(s.checks[0]));
  CHECK(to_json(back.checks[1]) == to_json(s.checks[1]));
  CHECK(back.checks[0].params == std::map<std::string, double>{{"M", 50}, {"lr_mult", 0.75}});
  REQUIRE(back.report.tables.size() == 1);
  CHECK(back.report.tables[0].metrics == std::vector<std::string>{"sin"});
  CHECK(back.report.tables[0].stat == "median_iqr");
  REQUIRE(back.report.figures.size() == 1);
  CHECK(back.report.figures[0].x == "epsilon");
  CHECK_FALSE(back.report.figures[0].log_x);
  CHECK(back.report.figures[0].theorem == "t.1");
  CHECK_THROWS_AS(settings_from_json(nlohmann::json::object()), dpb::InvalidArgument);
}

TEST_CASE("settings stored before checks had params read back with none", "[experiment]") {
  RunSettings s;
  s.checks.push_back({"rate", "t.1", "a", "sin", "n", "", 0.1, false, {{"M", 5}}});
  nlohmann::json j = to_json(s);
  j["checks"][0].erase("params");
  CHECK(settings_from_json(j).checks.at(0).params.empty());
}
