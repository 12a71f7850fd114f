#include "verify/experiment/settings.hpp"

#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>
#include <map>

#include "core/errors.hpp"
#include "tests/verify/checks/synthetic.hpp"

using namespace dpb::verify;

TEST_CASE("run settings survive a round trip through JSON", "[experiment]") {
  RunSettings s;
  s.seed = 42;
  CheckSpec slope = dpb::test::check_spec("slope", "t.1", "a[x=1]", "sin", "n");
  slope.tolerance = 0.25;
  slope.optimal = true;
  slope.params = {{"M", 50}, {"lr_mult", 0.75}};
  s.checks.push_back(slope);
  s.checks.push_back(dpb::test::check_spec("consistency", "t.1", "", "", "", "t.2"));
  CheckSpec dominates = dpb::test::check_spec("dominates", "", "a", "sin", "", "b");
  dominates.tolerance = 0;
  dominates.where = {{"lambda", {2, 5}}};
  dominates.note = "a documented reason";
  dominates.override_reason = "an override";
  s.checks.push_back(dominates);
  s.report.tables.push_back({"n", "algorithm", "median_iqr", {"sin"}, "min"});
  s.report.figures.push_back({"epsilon", "sin", false, true, "t.1", true});
  s.report.algorithm_names = {{"a[x=1]", "Algorithm A"}};
  s.report.selection = dpb::verify::SelectionSpec{"sin"};
  const RunSettings back = settings_from_json(nlohmann::json::parse(to_json(s).dump()));
  CHECK(back.seed == 42);
  REQUIRE(back.checks.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(to_json(back.checks[i]) == to_json(s.checks[i]));
  CHECK(back.checks[0].params == std::map<std::string, double>{{"M", 50}, {"lr_mult", 0.75}});
  CHECK(back.checks[2].where.at("lambda") == std::pair<double, double>{2, 5});
  // `dpbounds check` reruns the checks from these: a note or override lost here would vanish there.
  CHECK(back.checks[2].note == "a documented reason");
  CHECK(back.checks[2].override_reason == "an override");
  CHECK(back.report.algorithm_names == s.report.algorithm_names);
  REQUIRE(back.report.tables.size() == 1);
  CHECK(back.report.tables[0].metrics == std::vector<std::string>{"sin"});
  CHECK(back.report.tables[0].stat == "median_iqr");
  CHECK(back.report.tables[0].best == "min");
  REQUIRE(back.report.figures.size() == 1);
  CHECK(back.report.figures[0].x == "epsilon");
  CHECK_FALSE(back.report.figures[0].log_x);
  CHECK(back.report.figures[0].theorem == "t.1");
  CHECK(back.report.figures[0].boxplot);
  REQUIRE(back.report.selection);
  CHECK(back.report.selection->metric == "sin");
  s.report.selection.reset();  // a run without `select:` (and one stored before it existed) reads back none
  CHECK_FALSE(settings_from_json(to_json(s)).report.selection);
  CHECK_THROWS_AS(settings_from_json(nlohmann::json::object()), dpb::InvalidArgument);
}

TEST_CASE("settings stored before checks had params read back with none", "[experiment]") {
  RunSettings s;
  CheckSpec rate = dpb::test::check_spec("rate", "t.1", "a", "sin", "n");
  rate.params = {{"M", 5}};
  s.checks.push_back(rate);
  nlohmann::json j = to_json(s);
  j["checks"][0].erase("params");
  CHECK(settings_from_json(j).checks.at(0).params.empty());
}
