#include "bounds/table_cell.hpp"

namespace dpb::bounds {

Theorem table_cell(const Theorem& theorem, std::string id, const std::string& paper, const std::string& where,
                   const std::string& citation, std::string cell_latex) {
  Theorem cell = theorem;
  cell.id = std::move(id);
  cell.source = paper + ", " + where + ": " + citation;
  cell.latex = std::move(cell_latex);
  return cell;
}

}  // namespace dpb::bounds
