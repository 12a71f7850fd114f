#pragma once
// Cells of a paper's own results table (kumar2025 Tables 1 and 2) as theorems, so that
// `dpbounds theorems --format tex` can rebuild the table: each carries its TableCell (bounds/theorem.hpp),
// its id "<paper key>.<table>.<row>.<column>" is made from it, and `latex` is the cell as the table prints it.
#include <string>

#include "bounds/theorem.hpp"

namespace dpb::bounds {

std::string to_string(TableCell::Row row);        // "upper" | "lower"
std::string to_string(TableCell::Column column);  // "nonprivate" | "ours" | "prior"

// `theorem` as the cell `cell` of the results table of `paper` (key `paper_key`): its id, its source
// "<paper>, <where>: <citation>" (`where` names the table position, e.g. "Table 1 (Upper Bound, Our Results)")
// and the table's own text `cell_latex`; the rate, conditions and setting stay the theorem's.
Theorem table_cell(Theorem theorem, const std::string& paper_key, TableCell cell, const std::string& paper,
                   const std::string& where, std::string cell_latex);

}  // namespace dpb::bounds
