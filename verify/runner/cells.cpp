#include "verify/runner/cells.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/rng.hpp"
#include "verify/datasets/dataset_model.hpp"

namespace dpb::verify {

std::vector<CellContext> make_cells(const ExperimentSpec& spec) {
  std::vector<CellContext> cells;
  const std::vector<Cell> grid = expand_grid(spec.grid);
  const LabelledData records = spec.data ? load_dataset(*spec.data) : LabelledData{};  // read once, for every cell
  for (std::size_t c = 0; c < grid.size(); ++c) {
    CellContext cell;
    cell.swept = grid[c];
    const CellSettings settings = cell_settings(spec, cell.swept);
    cell.n = settings.n;
    cell.privacy = settings.privacy;
    const core::ParamMap& model_params = settings.model_params;
    std::vector<std::string> parts;
    for (const auto& [axis, value] : cell.swept) parts.push_back(fmt::format("{}={}", axis, value));
    cell.label = parts.empty() ? "single cell" : fmt::format("{}", fmt::join(parts, ", "));
    core::Rng rng(spec.seed, core::stream_id(spec.name, c, "model", 0, "model"));
    if (spec.data) cell.model = std::make_unique<DatasetModel>(records, *spec.data);
    else cell.model = core::make_model(spec.model, model_params, rng);
    const core::ModelInfo& info = cell.model->info();
    cell.params = info.params;
    for (const auto& [name, value] : model_params.values())
      if (const double* v = std::get_if<double>(&value)) cell.params[name] = *v;
    cell.params["n"] = double(cell.n);
    cell.params["epsilon"] = cell.privacy.epsilon;  // the grid axis' name, and what the theorems read
    cell.params["delta"] = cell.privacy.delta;
    cell.params.try_emplace("d", double(info.d()));
    cell.params.try_emplace("k", double(info.r()));
    cell.params.try_emplace("r", double(info.r()));
    cells.push_back(std::move(cell));
  }
  return cells;
}

}  // namespace dpb::verify
