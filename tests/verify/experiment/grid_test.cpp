#include "verify/experiment/grid.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"

using namespace dpb::verify;

TEST_CASE("grid groups expand as nested loops in file order, zipped axes together", "[experiment]") {
  const std::vector<GridGroup> grid = {{{"n"}, {{100, 200}}}, {{"d", "r"}, {{5, 10, 20}, {1, 2, 3}}}};
  const auto cells = expand_grid(grid);
  REQUIRE(cells.size() == 6);
  CHECK(cells[0] == Cell{{"n", 100}, {"d", 5}, {"r", 1}});
  CHECK(cells[2] == Cell{{"n", 100}, {"d", 20}, {"r", 3}});
  CHECK(cells[3] == Cell{{"n", 200}, {"d", 5}, {"r", 1}});
  CHECK(expand_grid({}).size() == 1);
  CHECK_THROWS_AS(expand_grid({{{"d", "r"}, {{5, 10}, {1}}}}), dpb::InvalidArgument);
  CHECK_THROWS_AS(expand_grid({{{"n"}, {{}}}}), dpb::InvalidArgument);
}

TEST_CASE("a cell's settings lay its swept n, epsilon and delta over the run and the rest over the model",
          "[experiment]") {
  // One definition, read by the parser's per-cell checks and by the runner's cells (they used to merge the
  // cell into the privacy each in its own way).
  ExperimentSpec spec;
  spec.n = 50;
  spec.privacy = {1.0, 1e-5, dpb::alg::Neighbours::add_remove};
  spec.model_params.set("d", 10.0);
  spec.model_params.set("lambda", 2.0);
  const CellSettings swept = cell_settings(spec, {{"n", 400}, {"epsilon", 0.5}, {"lambda", 4}});
  CHECK(swept.n == 400);
  CHECK(swept.privacy.epsilon == 0.5);
  CHECK(swept.privacy.delta == 1e-5);
  CHECK(swept.privacy.neighbours == dpb::alg::Neighbours::add_remove);
  CHECK(swept.model_params.get_real("lambda", 0, "test") == 4);
  CHECK(swept.model_params.get_real("d", 0, "test") == 10);
  CHECK_FALSE(swept.model_params.has("n"));
  CHECK_FALSE(swept.model_params.has("epsilon"));
  const CellSettings fixed = cell_settings(spec, {{"delta", 1e-6}});
  CHECK(fixed.n == 50);
  CHECK(fixed.privacy.epsilon == 1.0);
  CHECK(fixed.privacy.delta == 1e-6);
}
