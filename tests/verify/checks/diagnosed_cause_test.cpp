#include "verify/checks/diagnosed_cause.hpp"

#include <catch2/catch.hpp>
#include <functional>
#include <map>

using namespace dpb::verify;

namespace {
// Four trials of algorithm "a" in cell 0, trial t's diagnostics from `diagnostics(t)`.
ResultSet four_trials(const std::function<std::map<std::string, double>(std::size_t)>& diagnostics,
                      std::map<std::string, double> cell_params = {}) {
  ResultSet r;
  for (std::size_t t = 0; t < 4; ++t) {
    TrialRow row;
    row.cell = 0;
    row.algorithm = "a";
    row.trial = t;
    row.cell_params = cell_params;
    row.diagnostics = diagnostics(t);
    r.rows.push_back(row);
  }
  return r;
}
}  // namespace

TEST_CASE("diagnosed_cause names BOTTOM releases and skipped steps that concern most trials", "[checks]") {
  const ResultSet r = four_trials([](std::size_t t) {
    return std::map<std::string, double>{{"bottom", t < 3 ? 1.0 : 0.0}, {"steps", 4}, {"skipped_steps", 1}};
  });
  // 3 of 4 trials released BOTTOM; a quarter of the steps skipped is not a cause.
  CHECK(diagnosed_cause(r, "a", {0}) == "it released BOTTOM in 3 of 4 trials ('bottom')");
  CHECK(diagnosed_cause(r, "a", {1}).empty());  // no trials in that cell
  CHECK(diagnosed_cause(r, "b", {0}).empty());
}

TEST_CASE("diagnosed_cause names steps too short to leave the random start", "[checks]") {
  // Observed (dugler2026 Private Oja in the quick suite): App. F.2's step decay sums to ~0.78 over the 13-15
  // steps of B = n / log n, so against the gap 1 the output stays near its random start at every n.
  ResultSet r = four_trials(
      [](std::size_t) { return std::map<std::string, double>{{"steps", 13}, {"step_size_sum", 0.78}}; },
      {{"n", 40000}, {"gap", 1.0}});
  CHECK(diagnosed_cause(r, "a", {0}) ==
        "its step sizes sum to 0.78 on average ('step_size_sum') against the gap 1: the iteration shrinks its random "
        "start's angle by a factor of about exp(0.78) = 2.2 at most, whatever n is");
  // Against a gap of 4 the same steps reach exp(3.1): not the cause.
  for (auto& row : r.rows) row.cell_params["gap"] = 4;
  CHECK(diagnosed_cause(r, "a", {0}).empty());
}
