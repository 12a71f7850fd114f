#pragma once
// Cells of a paper's own results table (kumar2025 Tables 1 and 2) as theorems, so that
// `dpbounds theorems --format tex` can rebuild the table. Id "<paper>.table<T>.<row>.<column>" with row
// upper | lower and column nonprivate | ours | prior; `latex` is the cell as the table prints it and
// `source` ends with ": <citation>" ("[BL09]", "Thm. 1").
#include <string>

#include "bounds/theorem.hpp"

namespace dpb::bounds {

// A cell backed by a theorem of the paper: the same rate, conditions and setting, the table's own text.
// `where` names the table position, e.g. "Table 1 (Upper Bound, Our Results)".
Theorem table_cell(const Theorem& theorem, std::string id, const std::string& paper, const std::string& where,
                   const std::string& citation, std::string cell_latex);

}  // namespace dpb::bounds
