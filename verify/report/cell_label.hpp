#pragma once
// A grid cell named by the parameters that differ between the cells shown together ("n=400, eps=0.5"):
// what tells one row of a table or one line of a report from another. Every cell holds all its model and
// run parameters (TrialRow::cell_params), most of them shared by every cell.
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dpb::verify {

using CellParams = std::map<std::string, double>;

// The names whose values differ between `cells` (or that some cell lacks).
std::set<std::string> varying_params(const std::vector<const CellParams*>& cells);
// "n=400, eps=0.5": the cell's values of `varying`; "single cell" when none vary.
std::string cell_label(const CellParams& cell, const std::set<std::string>& varying);

}  // namespace dpb::verify
