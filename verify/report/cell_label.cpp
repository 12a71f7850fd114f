#include "verify/report/cell_label.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace dpb::verify {

std::set<std::string> varying_params(const std::vector<const CellParams*>& cells) {
  std::set<std::string> varying;
  if (cells.empty()) return varying;
  const CellParams& first = *cells.front();
  for (const CellParams* cell : cells) {
    for (const auto& [name, value] : *cell)
      if (const auto it = first.find(name); it == first.end() || it->second != value) varying.insert(name);
    for (const auto& [name, value] : first)
      if (!cell->count(name)) varying.insert(name);
  }
  return varying;
}

std::string cell_label(const CellParams& cell, const std::set<std::string>& varying) {
  std::vector<std::string> parts;
  for (const auto& name : varying)
    if (const auto it = cell.find(name); it != cell.end()) parts.push_back(fmt::format("{}={:g}", name, it->second));
  return parts.empty() ? "single cell" : fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace dpb::verify
