#include "verify/runner/cells.hpp"

#include <catch2/catch.hpp>

#include "verify/experiment/experiment_fixture.hpp"

using namespace dpb::verify;

TEST_CASE("cells carry the model instance, n, privacy and every numeric parameter", "[runner]") {
  const auto spec = test::parse_text(test::kTinyExperiment, {{"grid.epsilon=[0.5,2]"}, {}});
  const auto cells = make_cells(spec);
  REQUIRE(cells.size() == 4);  // n x epsilon
  CHECK(cells[1].n == 200);
  CHECK(cells[1].privacy.epsilon == 2);
  CHECK(cells[1].label == "epsilon=2, n=200");
  const auto& p = cells[1].params;
  CHECK(p.at("n") == 200);
  // One name, what the theorems read, a `vary: epsilon` check and an `epsilon` table row (issue 24: the cell also
  // carried the same value as "eps").
  CHECK(p.at("epsilon") == 2);
  CHECK(p.count("eps") == 0);
  CHECK(p.at("delta") == 1e-5);
  CHECK(p.at("d") == 5);
  CHECK(p.at("k") == 1);
  CHECK(p.at("lambda") == 4);
  CHECK(p.count("lambda1") == 1);  // from ModelInfo::params
  // The model instance depends on (seed, experiment, cell) only: rebuilding gives the same target.
  CHECK(make_cells(spec)[1].model->info().target == cells[1].model->info().target);
}
