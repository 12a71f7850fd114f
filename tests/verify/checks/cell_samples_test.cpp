#include "verify/checks/cell_samples.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using dpb::verify::TrialRow;

TEST_CASE("cell samples group one algorithm's metric by cell, in trial order, counting failures",
          "[checks][cell_samples]") {
  dpb::verify::ResultSet r;
  auto row = [](std::size_t cell, std::size_t trial, const std::string& alg, double value) {
    TrialRow t;
    t.cell = cell;
    t.trial = trial;
    t.algorithm = alg;
    t.cell_params = {{"n", 100.0 * double(cell + 1)}};
    t.metrics["sin"] = value;
    return t;
  };
  r.rows = {row(1, 1, "a", 5), row(0, 1, "a", 2), row(0, 0, "a", 1), row(0, 0, "b", 9), row(1, 0, "a", NAN)};
  auto failed = row(1, 2, "a", 0);
  failed.error = std::string("diverged");
  failed.metrics.clear();
  r.rows.push_back(failed);
  const auto cells = dpb::verify::cell_samples(r, "a", "sin");
  REQUIRE(cells.size() == 2);
  CHECK(cells[0].cell == 0);
  CHECK(cells[0].values == std::vector<double>{1, 2});
  CHECK(cells[0].failed == 0);
  CHECK(cells[0].params.at("n") == 100);
  CHECK(cells[1].values == std::vector<double>{5});
  CHECK(cells[1].failed == 2);  // the NaN and the error
  CHECK(dpb::verify::cell_samples(r, "c", "sin").empty());
  CHECK(dpb::verify::cell_samples(r, "a", "cov_op")[0].failed == 2);
}
