#include "verify/checks/diagnosed_cause.hpp"

#include <catch2/catch.hpp>

using namespace dpb::verify;

TEST_CASE("diagnosed_cause names BOTTOM releases and skipped steps that concern most trials", "[checks]") {
  ResultSet r;
  for (std::size_t t = 0; t < 4; ++t) {
    TrialRow row;
    row.cell = 0;
    row.algorithm = "a";
    row.trial = t;
    row.diagnostics = {{"bottom", t < 3 ? 1.0 : 0.0}, {"steps", 4}, {"skipped_steps", 1}};
    r.rows.push_back(row);
  }
  // 3 of 4 trials released BOTTOM; a quarter of the steps skipped is not a cause.
  CHECK(diagnosed_cause(r, "a", {0}) == "it released BOTTOM in 3 of 4 trials ('bottom')");
  CHECK(diagnosed_cause(r, "a", {1}).empty());  // no trials in that cell
  CHECK(diagnosed_cause(r, "b", {0}).empty());
}
