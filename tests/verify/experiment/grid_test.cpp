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
