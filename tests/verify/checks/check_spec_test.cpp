#include "verify/checks/check_spec.hpp"

#include <catch2/catch.hpp>

#include "tests/verify/checks/synthetic.hpp"

using namespace dpb::verify;

TEST_CASE("verdict status names and the JSON of a verdict", "[checks][check_spec]") {
  CHECK(to_string(VerdictStatus::pass) == "PASS");
  CHECK(to_string(VerdictStatus::fail) == "FAIL");
  CHECK(to_string(VerdictStatus::inconclusive) == "INCONCLUSIVE");
  Verdict v;
  v.check = dpb::test::check_spec("rate", "T", "", "", "n");
  v.check.optimal = true;
  v.status = VerdictStatus::fail;
  v.statistic = std::string("mean: why");  // moved in: see tests/verify/checks/synthetic.hpp
  v.summary = std::string("FAIL: figures");
  v.figures = {{"slope", 0.5}};
  const auto j = to_json(v);
  CHECK(j["status"] == "FAIL");
  CHECK(j["check"]["kind"] == "rate");
  CHECK(j["check"]["theorem"] == "T");
  CHECK(j["check"]["optimal"] == true);
  CHECK(j["check"]["tolerance"] == 0.1);
  CHECK(j["statistic"] == "mean: why");
  CHECK(j["figures"]["slope"] == 0.5);
}
