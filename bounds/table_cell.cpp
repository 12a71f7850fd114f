#include "bounds/table_cell.hpp"

#include <fmt/format.h>

namespace dpb::bounds {

std::string to_string(TableCell::Row row) { return row == TableCell::Row::upper ? "upper" : "lower"; }

std::string to_string(TableCell::Column column) {
  switch (column) {
    case TableCell::Column::nonprivate: return "nonprivate";
    case TableCell::Column::ours: return "ours";
    case TableCell::Column::prior: return "prior";
  }
  return "?";
}

Theorem table_cell(Theorem theorem, const std::string& paper_key, TableCell cell, const std::string& paper,
                   const std::string& where, std::string cell_latex) {
  theorem.id = fmt::format("{}.{}.{}.{}", paper_key, cell.table, to_string(cell.row), to_string(cell.column));
  theorem.source = paper + ", " + where + ": " + cell.citation;
  theorem.latex = std::move(cell_latex);
  theorem.in_table = std::move(cell);
  return theorem;
}

}  // namespace dpb::bounds
