#include "verify/checks/dominates_check.hpp"

#include <fmt/format.h>

#include <map>

#include "verify/checks/bootstrap.hpp"
#include "verify/checks/cell_samples.hpp"
#include "verify/checks/sample_statistics.hpp"

namespace dpb::verify {

namespace {

// A cell both algorithms ran in, with enough successful trials of each.
struct PairedCell {
  std::size_t cell = 0;
  std::vector<double> a, b;
};

bool in_range(const bounds::Params& cell, const CheckSpec& check) {
  for (const auto& [name, range] : check.where) {
    const auto value = cell.find(name);
    if (value == cell.end() || value->second < range.first || value->second > range.second) return false;
  }
  return true;
}

struct PairedCells {
  std::vector<PairedCell> cells;
  std::vector<std::string> short_cells;  // cells too few trials of either algorithm left to judge
};

PairedCells paired_cells(const ResultSet& results, const CheckSpec& check, const CheckOptions& options) {
  std::map<std::size_t, std::vector<double>> against;
  for (auto& s : cell_samples(results, check.against, check.metric)) against[s.cell] = std::move(s.values);
  PairedCells paired;
  for (auto& s : cell_samples(results, check.algorithm, check.metric)) {
    const auto other = against.find(s.cell);
    if (other == against.end() || !in_range(s.params, check)) continue;
    if (s.values.size() < options.min_trials_per_cell || other->second.size() < options.min_trials_per_cell)
      paired.short_cells.push_back(fmt::format("cell {} has {} and {} successful trials of {} and {} (need {} each)",
                                               s.cell, s.values.size(), other->second.size(), check.algorithm,
                                               check.against, options.min_trials_per_cell));
    else
      paired.cells.push_back({s.cell, std::move(s.values), other->second});
  }
  if (paired.cells.empty() && !paired.short_cells.empty()) throw Inconclusive(paired.short_cells.front());
  if (paired.cells.empty())
    throw Inconclusive(fmt::format("{} and {} share no cell with values of {}{}", check.algorithm, check.against,
                                   check.metric, where_text(check)));
  return paired;
}

}  // namespace

Verdict check_dominates(const ResultSet& results, const CheckSpec& check, std::uint64_t seed,
                        const CheckOptions& options) {
  // A claim "in every cell" is contradicted by one cell, whatever the others hold; it is confirmed only when every
  // cell can be judged.
  const auto [cells, short_cells] = paired_cells(results, check, options);
  // Bonferroni over cells: the claim is "in every cell", so the cells' intervals must hold jointly.
  const double cell_confidence = 1 - (1 - options.confidence) / static_cast<double>(cells.size());
  const std::string label = fmt::format("dominates|{}|{}|{}", check.algorithm, check.against, check.metric);
  const BootstrapStreams streams_a{seed, results.experiment, label + "|a"};
  const BootstrapStreams streams_b{seed, results.experiment, label + "|b"};
  const double factor = 1 + check.tolerance;

  bool any_above = false, all_below = true;
  nlohmann::json per_cell = nlohmann::json::array();
  std::string worst;  // the cell where A sits highest relative to B
  double worst_ratio = 0;
  for (const auto& cell : cells) {
    std::vector<double> differences;
    for (int r = 0; r < options.bootstrap_resamples; ++r) {
      const auto index = static_cast<std::size_t>(r);
      core::Rng rng_a = streams_a.stream(cell.cell, index), rng_b = streams_b.stream(cell.cell, index);
      differences.push_back(sample_mean(resample(cell.a, rng_a)) - factor * sample_mean(resample(cell.b, rng_b)));
    }
    const auto [lo, hi] = percentile_interval(differences, cell_confidence);
    any_above = any_above || lo > 0;
    all_below = all_below && hi <= 0;
    const double mean_a = sample_mean(cell.a), mean_b = sample_mean(cell.b);
    const double ratio = mean_a / mean_b;
    per_cell.push_back({{"cell", cell.cell}, {"trials", {cell.a.size(), cell.b.size()}}, {"mean", mean_a},
                        {"mean_against", mean_b}, {"ratio", ratio}, {"difference_ci", {lo, hi}}});
    if (worst.empty() || ratio > worst_ratio) {
      worst_ratio = ratio;
      worst = fmt::format("cell {}: mean {:.3g} vs {:.3g} (ratio {:.3g}; mean - {:g} x other in [{:.3g}, {:.3g}])",
                          cell.cell, mean_a, mean_b, ratio, factor, lo, hi);
    }
  }
  Verdict v;
  v.check = check;
  const bool unjudged = !short_cells.empty();
  v.status = any_above                ? VerdictStatus::fail
             : all_below && !unjudged ? VerdictStatus::pass
                                      : VerdictStatus::inconclusive;
  v.statistic = fmt::format("mean, per cell, bootstrap interval at {:.4g} (Bonferroni over {} cells)",
                            cell_confidence, cells.size());
  const std::string claim =
      fmt::format("{} <= {:g} x {} on {}{}", check.algorithm, factor, check.against, check.metric, where_text(check));
  const std::string left_out =
      unjudged ? fmt::format("; {} cell(s) left out: {}", short_cells.size(), short_cells.front()) : "";
  v.summary = any_above   ? fmt::format("FAIL: {} is contradicted; worst {}{}", claim, worst, left_out)
              : all_below ? (unjudged ? fmt::format("INCONCLUSIVE: {} holds in the {} cells that can be judged, but {}",
                                                    claim, cells.size(), short_cells.front())
                                      : fmt::format("PASS: {} in all {} cells; closest {}", claim, cells.size(), worst))
                          : fmt::format("INCONCLUSIVE: {} is too close to call; closest {}{}", claim, worst, left_out);
  v.figures = {{"cells", per_cell}, {"cell_confidence", cell_confidence}, {"factor", factor},
               {"cells_left_out", short_cells}};
  return v;
}

}  // namespace dpb::verify
