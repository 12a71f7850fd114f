#include <catch2/catch.hpp>

#include "bounds/table_cell.hpp"

TEST_CASE("a table cell keeps its theorem's rate and conditions and carries the table's text", "[bounds]") {
  dpb::bounds::Theorem t;
  t.id = "paper.thm1";
  t.source = "Authors 2025, Theorem 1";
  t.rate = [](const dpb::bounds::Params& p) { return 2 * p.at("n"); };
  t.conditions = {{"n > 1", "n > 1", [](const dpb::bounds::Params& p) { return p.at("n") > 1; }}};
  t.setting = "paper.model1";
  using Cell = dpb::bounds::TableCell;
  const auto cell = dpb::bounds::table_cell(t, "paper", {"table1", Cell::Row::upper, Cell::Column::ours, "Thm. 1"},
                                            "Authors 2025", "Table 1 (Upper Bound, Our Results)", "k^2");
  CHECK(cell.id == "paper.table1.upper.ours");  // made from the position, which the cell keeps
  REQUIRE(cell.in_table);
  CHECK(cell.in_table->row == Cell::Row::upper);
  CHECK(cell.in_table->column == Cell::Column::ours);
  CHECK(cell.in_table->citation == "Thm. 1");
  CHECK_FALSE(t.in_table);
  CHECK(cell.source == "Authors 2025, Table 1 (Upper Bound, Our Results): Thm. 1");
  CHECK(cell.latex == "k^2");
  CHECK(cell.rate({{"n", 3}}) == 6);
  CHECK(cell.conditions.size() == 1);
  CHECK(cell.setting == "paper.model1");
}
