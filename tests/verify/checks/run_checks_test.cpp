#include "verify/checks/run_checks.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "tests/verify/checks/synthetic.hpp"

using dpb::verify::CheckSpec;
using dpb::verify::VerdictStatus;

namespace {

CheckSpec rate_check(const std::string& theorem) {
  return dpb::test::check_spec("rate", theorem, "alg", "sin", "n");
}

dpb::verify::ResultSet results() {
  dpb::verify::ResultSet r;
  r.experiment = std::string("synthetic");
  dpb::test::add_trials(r, "alg", "sin", {100, 1000, 10000}, 30, dpb::test::power_law(1, 0.5, 0.1, 2));
  return r;
}

}  // namespace

TEST_CASE("run_checks answers every check in order, turning what cannot be judged into INCONCLUSIVE",
          "[checks][run_checks]") {
  const std::vector<dpb::bounds::Theorem> theorems = {
      dpb::test::power_rate_theorem("T", dpb::bounds::Kind::upper, 0.5)};
  auto few_cells = rate_check("T");
  few_cells.vary = std::string("epsilon");  // one distinct value
  const auto verdicts =
      dpb::verify::run_checks(results(), {rate_check("T"), rate_check("T.unknown"), few_cells}, 1, theorems);
  REQUIRE(verdicts.size() == 3);
  CHECK(verdicts[0].status == VerdictStatus::pass);
  CHECK(verdicts[1].status == VerdictStatus::inconclusive);
  CHECK(verdicts[1].summary.find("T.unknown") != std::string::npos);
  CHECK(verdicts[1].figures["reason"].is_string());
  CHECK(verdicts[2].status == VerdictStatus::inconclusive);
  CHECK(verdicts[2].summary.find("distinct values") != std::string::npos);
}

TEST_CASE("run_checks refuses malformed checks before running any", "[checks][run_checks]") {
  auto bad_kind = rate_check("T");
  bad_kind.kind = std::string("speed");
  CHECK_THROWS_WITH(dpb::verify::run_checks(results(), {bad_kind}, 1, {}), Catch::Contains("rate, slope"));
  auto no_metric = rate_check("T");
  no_metric.metric.clear();
  CHECK_THROWS_WITH(dpb::verify::run_checks(results(), {no_metric}, 1, {}), Catch::Contains("'metric'"));
  const auto consistency = dpb::test::check_spec("consistency", "U", "", "", "");
  CHECK_THROWS_WITH(dpb::verify::run_checks(results(), {consistency}, 1, {}), Catch::Contains("'against'"));
}

TEST_CASE("run_checks without a theorem list looks ids up in the catalogue", "[checks][run_checks]") {
  const auto verdicts = dpb::verify::run_checks(results(), {rate_check("no.such.theorem")}, 1);
  REQUIRE(verdicts.size() == 1);
  CHECK(verdicts[0].status == VerdictStatus::inconclusive);
  CHECK(verdicts[0].summary.find("no.such.theorem") != std::string::npos);
}
