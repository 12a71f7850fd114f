#include "verify/checks/upper_falsification.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "verify/audit/estimators.hpp"
#include "verify/checks/bootstrap.hpp"
#include "verify/checks/sample_statistics.hpp"
#include "verify/checks/theorem_cells.hpp"

namespace dpb::verify {

namespace {

struct CellVerdict {
  bool contradicted = false;  // significantly above the bound
  bool within = false;        // at or below it
  double closeness = 0;       // how near the bound the cell comes (the worst cell is reported)
  std::string text;
  nlohmann::json figures;
};

// The lower end of the containment a cell's values must lie in: -infinity for a one-sided bound. Like the
// explicit value (theorem_cells), a floor that cannot be evaluated at a cell leaves the check inconclusive.
double floor_at(const bounds::Theorem& theorem, const TheoremCell& cell) {
  if (!theorem.explicit_floor) return -std::numeric_limits<double>::infinity();
  try {
    return (*theorem.explicit_floor)(cell.params);
  } catch (const std::exception& e) {
    throw Inconclusive(fmt::format("the explicit floor of {} cannot be evaluated at cell {}: {}", theorem.id,
                                   cell.cell, e.what()));
  }
}

// With probability 1 - zeta the value is <= the bound (and >= the floor): count the trials that are not.
CellVerdict violations(const TheoremCell& cell, double floor, double zeta, double alpha) {
  const auto count = [&](auto violates) {
    return static_cast<long>(std::count_if(cell.values.begin(), cell.values.end(), violates));
  };
  const long above = count([&](double v) { return v > cell.theorem_value; });
  const long below = count([&](double v) { return v < floor; });
  const long violated = above + below + static_cast<long>(cell.failed);
  const long trials = static_cast<long>(cell.values.size() + cell.failed);
  const double fraction = double(violated) / double(trials);
  const double lower = binomial_lower_bound(violated, trials, alpha);
  // A cell whose every trial failed has no value to report (all of them violate).
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  const double smallest =
      cell.values.empty() ? nan : *std::min_element(cell.values.begin(), cell.values.end());
  const double largest =
      cell.values.empty() ? nan : *std::max_element(cell.values.begin(), cell.values.end());
  const bool two_sided = !std::isinf(floor);
  nlohmann::json figures = {{"cell", cell.cell},           {"trials", trials},
                            {"violations", violated},      {"above_bound", above},
                            {"failed", cell.failed},       {"largest", largest},
                            {"bound", cell.theorem_value}, {"violation_lower_bound", lower}};
  if (two_sided) figures.update({{"below_floor", below}, {"smallest", smallest}, {"floor", floor}});
  const std::string counts = two_sided ? fmt::format("value > {:.3g}: {}, value < {:.3g}: {}",
                                                     cell.theorem_value, above, floor, below)
                                       : fmt::format("value > {:.3g}: {}", cell.theorem_value, above);
  const std::string range = two_sided ? fmt::format("values in [{:.3g}, {:.3g}]", smallest, largest)
                                      : fmt::format("largest value {:.3g}", largest);
  return {
      lower > zeta, fraction <= zeta, fraction,
      fmt::format("cell {}: {} of {} trials violate ({}, nothing released: {}), {}; violation probability "
                  ">= {:.3g} at level {:.3g}, allowed {:g}",
                  cell.cell, violated, trials, counts, cell.failed, range, lower, 1 - alpha, zeta),
      figures};
}

// On average the value is <= the bound (and >= the floor): the bootstrap CI of the mean.
CellVerdict mean_against(const TheoremCell& cell, double floor, const BootstrapStreams& streams,
                         const CheckOptions& options) {
  const auto [lo, hi] =
      statistic_interval(cell.values, streams, cell.cell, options.bootstrap_resamples, options.confidence);
  const double mean = sample_mean(cell.values), bound = cell.theorem_value;
  nlohmann::json figures = {{"cell", cell.cell},
                            {"trials", cell.values.size()},
                            {"mean", mean},
                            {"ci", {lo, hi}},
                            {"bound", bound}};
  if (!std::isinf(floor)) figures["floor"] = floor;
  return {lo > bound || hi < floor, mean <= bound && mean >= floor, mean / bound,
          fmt::format("cell {}: mean {:.3g} ({:g}% CI [{:.3g}, {:.3g}]) vs {}", cell.cell, mean,
                      100 * options.confidence, lo, hi,
                      std::isinf(floor) ? fmt::format("bound {:.3g}", bound)
                                        : fmt::format("containment [{:.3g}, {:.3g}]", floor, bound)),
          figures};
}

}  // namespace

Verdict check_upper_falsification(const ResultSet& results, const CheckSpec& check,
                                  const bounds::Theorem& theorem, std::uint64_t seed,
                                  const CheckOptions& options) {
  if (!theorem.explicit_value)
    throw Inconclusive(
        fmt::format("{} has no explicit value: a rate with unspecified constants is checked by "
                    "its slope (kind rate), not against one number",
                    theorem.id));
  const auto cells =
      theorem_cells(results, check, theorem, *theorem.explicit_value, "explicit value", options);

  const bool with_probability = theorem.semantics.high_probability;
  const double zeta = theorem.semantics.zeta;
  const double alpha = (1 - options.confidence) / double(cells.inside.size());  // Bonferroni over the cells
  const BootstrapStreams streams{
      seed, results.experiment,
      fmt::format("falsification|{}|{}|{}", check.theorem, check.algorithm, check.metric)};
  bool contradicted = false, all_within = true;
  const CellVerdict* worst = nullptr;
  std::vector<CellVerdict> per_cell;
  for (const auto& cell : cells.inside)
    per_cell.push_back(with_probability ? violations(cell, floor_at(theorem, cell), zeta, alpha)
                                        : mean_against(cell, floor_at(theorem, cell), streams, options));
  nlohmann::json figures = nlohmann::json::array();
  for (const auto& c : per_cell) {
    contradicted = contradicted || c.contradicted;
    all_within = all_within && c.within;
    if (!worst || c.closeness > worst->closeness) worst = &c;
    figures.push_back(c.figures);
  }
  Verdict v;
  v.check = check;
  v.status = contradicted ? VerdictStatus::fail
             : all_within ? VerdictStatus::pass
                          : VerdictStatus::inconclusive;
  v.statistic = with_probability
                    ? fmt::format(
                          "violation count: the theorem holds with probability 1 - zeta = {:g} per run, so "
                          "at most a fraction zeta of the trials may exceed the explicit value (or fall "
                          "below its floor)",
                          1 - zeta)
                    : "mean: the theorem bounds the expected value";
  v.summary = fmt::format("{}: {} ({} cells)", to_string(v.status), worst->text, cells.inside.size());
  v.figures = {{"cells", figures}, {"confidence", options.confidence}, {"outside_conditions", cells.outside}};
  if (with_probability) v.figures["zeta"] = zeta;
  return v;
}

}  // namespace dpb::verify
