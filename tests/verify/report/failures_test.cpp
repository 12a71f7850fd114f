#include "verify/report/failures.hpp"

#include <catch2/catch.hpp>

using namespace dpb::verify;

namespace {

TrialRow row(std::size_t cell, double n, const std::string& algorithm, const std::string& error) {
  TrialRow r;
  r.cell = cell;
  r.cell_params = {{"n", n}, {"d", 5}};  // d is the same in every cell: not part of the label
  r.algorithm = algorithm;
  r.error = error;
  if (error.empty()) r.metrics["sin"] = 0.1;
  return r;
}

}  // namespace

TEST_CASE("failed trials are grouped by cell and algorithm, commonest reasons first", "[report]") {
  ResultSet results;
  results.experiment = "e";
  for (int t = 0; t < 3; ++t) results.rows.push_back(row(0, 200, "a", ""));
  for (const char* why : {"timeout", "bad reply", "timeout", "crash", "exit 3", "timeout", "bad reply"})
    results.rows.push_back(row(0, 200, "b", why));
  results.rows.push_back(row(1, 400, "a", ""));
  results.rows.push_back(row(1, 400, "a", "timeout"));
  const auto groups = failure_groups(results);
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].algorithm == "b");
  CHECK(groups[0].cell_label == "n=200");
  CHECK(groups[0].failed == 7);
  CHECK(groups[0].trials == 7);
  CHECK(groups[0].all_failed());
  // The top three by count; ties in alphabetical order.
  CHECK(groups[0].reasons == std::vector<std::pair<std::string, std::size_t>>{{"timeout", 3}, {"bad reply", 2}, {"crash", 1}});
  CHECK(groups[1].algorithm == "a");
  CHECK(groups[1].cell_label == "n=400");
  CHECK_FALSE(groups[1].all_failed());
  CHECK(describe(groups[1]) == "n=400, a: 1 of 2 trials failed: timeout (x1)");
  const std::string md = failures_markdown(groups);
  CHECK_THAT(md, Catch::Contains("| n=200 | b | **all** 7 of 7 | timeout (x3)<br>bad reply (x2)<br>crash (x1) |"));
  CHECK_THAT(md, Catch::Contains("1 (cell, algorithm) pairs have no successful trial"));
  CHECK(failures_markdown(failure_groups(ResultSet{"e", "h", {row(0, 200, "a", "")}})).empty());
}
