#include "verify/checks/rate_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "verify/checks/bootstrap.hpp"
#include "verify/checks/diagnosed_cause.hpp"
#include "verify/checks/error_statistic.hpp"
#include "verify/checks/sample_statistics.hpp"
#include "verify/checks/theorem_cells.hpp"
#include "verify/runner/metrics.hpp"

namespace dpb::verify {

namespace {

// The swept variable of every cell; Inconclusive when a cell lacks it, it is not > 0 (log axis), or it takes too
// few values (naming the cells `at_chance` left out, when any were).
std::vector<double> log_swept(const std::vector<TheoremCell>& cells, const CheckSpec& check,
                              const CheckOptions& options, const std::vector<std::string>& at_chance) {
  std::vector<double> log_x;
  std::set<double> distinct;
  for (const auto& cell : cells) {
    const auto x = cell.params.find(check.vary);
    if (x == cell.params.end())
      throw Inconclusive(fmt::format("cell {} has no parameter '{}' to vary", cell.cell, check.vary));
    if (!(x->second > 0))
      throw Inconclusive(fmt::format("'{}' = {} at cell {}: a log-log slope needs it > 0", check.vary,
                                     x->second, cell.cell));
    log_x.push_back(std::log(x->second));
    distinct.insert(x->second);
  }
  if (distinct.size() < options.min_cells)
    throw Inconclusive(fmt::format(
        "'{}' takes {} distinct values inside the theorem's conditions{}; a slope needs >= {}", check.vary,
        distinct.size(),
        at_chance.empty() ? "" : fmt::format(" once the cells at chance are left out ({})", fmt::join(at_chance, "; ")),
        options.min_cells));
  return log_x;
}

// log(statistic / rate) per cell, from the given per-cell values.
std::vector<double> log_ratios(const std::vector<TheoremCell>& cells,
                               const std::vector<std::vector<double>>& values,
                               const ErrorStatistic& statistic) {
  std::vector<double> out;
  for (std::size_t i = 0; i < cells.size(); ++i)
    out.push_back(std::log(statistic(values[i]) / cells[i].theorem_value));
  return out;
}

// A statistic at or above this fraction of a random subspace's level counts as no better than chance.
constexpr double kChanceFraction = 0.9;

// An upper bound's rate says nothing about cells where the estimate is still no better than a random
// subspace: the theorem's unspecified sample-size constant is not met yet (n below its n_0), and a flat
// error against a falling rate would read as a FAIL the theorem does not predict. Each such cell is left
// out of the slope, one by one, and named. Cells without a rank ("r", else "k") and dimension "d", and
// covariance metrics, are never judged so.
struct ChanceSplit {
  std::vector<TheoremCell> judged;
  std::vector<std::vector<double>> values;  // of the judged cells
  std::vector<std::string> excluded;        // "n=1000 (1.39, chance 1.41)"
  std::string cause;                        // what the excluded cells' diagnostics show ("" if nothing)
};

ChanceSplit exclude_at_chance(const ResultSet& results, const std::vector<TheoremCell>& cells,
                              const std::vector<std::vector<double>>& values, const ErrorStatistic& statistic,
                              const CheckSpec& check, bool upper) {
  std::set<std::size_t> at_chance;
  ChanceSplit split;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto& params = cells[i].params;
    const auto rank = params.count("r") ? params.find("r") : params.find("k");
    const auto dim = params.find("d");
    const double level = upper && rank != params.end() && dim != params.end()
                             ? subspace_chance_level(check.metric, rank->second, dim->second).value_or(0)
                             : 0;  // 0: no chance level
    const double stat = statistic(values[i]);
    if (level > 0 && stat >= kChanceFraction * level) {
      split.excluded.push_back(fmt::format("{}={:g} ({:.3g}, chance {:.3g})", check.vary, params.at(check.vary), stat, level));
      at_chance.insert(cells[i].cell);
      continue;
    }
    split.judged.push_back(cells[i]);
    split.values.push_back(values[i]);
  }
  if (split.excluded.empty()) return split;
  // The algorithm's own diagnostics say why, when they do; else the theorem's constants are the suspect.
  const std::string cause = diagnosed_cause(results, check.algorithm, at_chance);
  split.cause = cause.empty() ? "" : "its diagnostics say why: " + cause;
  if (split.judged.size() < 2)
    throw Inconclusive(fmt::format(
        "{} is at chance level (>= {:g} of a random subspace's) in {} of {} cells: {}; fewer than 2 cells are left "
        "for a slope: {}",
        check.metric, kChanceFraction, split.excluded.size(), cells.size(), fmt::join(split.excluded, "; "),
        cause.empty() ? "the grid lies below the sample size the theorem's unspecified constants need"
                      : split.cause));
  return split;
}

struct Forbidden {
  bool above = false;  // slope > +tolerance
  bool below = false;  // slope < -tolerance
};

Forbidden forbidden_sides(const CheckSpec& check, const bounds::Theorem& theorem) {
  if (check.kind == "slope") return {true, true};
  const bool upper = theorem.kind == bounds::Kind::upper;
  return {upper || check.optimal, !upper || check.optimal};
}

std::string allowed_range(const Forbidden& f, double tol) {
  if (f.above && f.below) return fmt::format("within [-{:g}, +{:g}]", tol, tol);
  return f.above ? fmt::format("<= +{:g}", tol) : fmt::format(">= -{:g}", tol);
}

}  // namespace

Verdict check_rate_or_slope(const ResultSet& results, const CheckSpec& check, const bounds::Theorem& theorem,
                            std::uint64_t seed, const CheckOptions& options) {
  const auto all_cells = theorem_cells(results, check, theorem, theorem.rate, "rate", options);

  std::size_t fewest = all_cells.inside.front().values.size();
  std::vector<std::vector<double>> all_observed;
  for (const auto& cell : all_cells.inside) {
    fewest = std::min(fewest, cell.values.size());
    all_observed.push_back(cell.values);
  }
  const ErrorStatistic statistic =
      choose_statistic(theorem.semantics, fewest, options.quantile_trials_factor);
  for (std::size_t i = 0; i < all_observed.size(); ++i)
    if (!(statistic(all_observed[i]) > 0))
      throw Inconclusive(
          fmt::format("the error statistic is 0 at cell {}: log R is undefined", all_cells.inside[i].cell));
  const ChanceSplit split =
      exclude_at_chance(results, all_cells.inside, all_observed, statistic, check, theorem.kind == bounds::Kind::upper);
  const std::vector<TheoremCell>& inside = split.judged;
  const auto& observed = split.values;
  const auto log_x = log_swept(inside, check, options, split.excluded);
  const auto log_r = log_ratios(inside, observed, statistic);
  const double slope = least_squares_slope(log_x, log_r);

  // Bootstrap: resample trials within each cell; a resample whose statistic is 0 somewhere has no
  // log R and is dropped (and counted).
  const BootstrapStreams streams{
      seed, results.experiment,
      fmt::format("{}|{}|{}|{}|{}", check.kind, check.theorem, check.algorithm, check.metric, check.vary)};
  std::vector<double> draws;
  int dropped = 0;
  for (int b = 0; b < options.bootstrap_resamples; ++b) {
    std::vector<std::vector<double>> drawn;
    for (const auto& cell : inside) {
      core::Rng rng = streams.stream(cell.cell, static_cast<std::size_t>(b));
      drawn.push_back(resample(cell.values, rng));
    }
    const auto r = log_ratios(inside, drawn, statistic);
    if (std::all_of(r.begin(), r.end(), [](double v) { return std::isfinite(v); }))
      draws.push_back(least_squares_slope(log_x, r));
    else
      ++dropped;
  }
  if (draws.size() < static_cast<std::size_t>(options.bootstrap_resamples) / 2)
    throw Inconclusive(fmt::format("{} of {} bootstrap resamples had a zero error statistic in some cell",
                                   dropped, options.bootstrap_resamples));
  const auto [lo, hi] = percentile_interval(draws, options.confidence);

  const double tol = check.tolerance;
  const Forbidden forbidden = forbidden_sides(check, theorem);
  const bool fail = (forbidden.above && lo > tol) || (forbidden.below && hi < -tol);
  const bool pass = (!forbidden.above || hi <= tol) && (!forbidden.below || lo >= -tol);

  nlohmann::json per_cell = nlohmann::json::array();
  std::vector<double> log_rate, log_stat, ratios;
  for (std::size_t i = 0; i < inside.size(); ++i) {
    const auto& cell = inside[i];
    const double stat = statistic(cell.values);
    ratios.push_back(stat / cell.theorem_value);
    log_rate.push_back(std::log(cell.theorem_value));
    log_stat.push_back(std::log(stat));
    per_cell.push_back({{"cell", cell.cell},
                        {check.vary, cell.params.at(check.vary)},
                        {"trials", cell.values.size()},
                        {"failed", cell.failed},
                        {"statistic", stat},
                        {"rate", cell.theorem_value},
                        {"ratio", ratios.back()}});
  }
  const double implied_constant = *std::max_element(ratios.begin(), ratios.end());
  const double smallest_ratio = *std::min_element(ratios.begin(), ratios.end());
  const double predicted = least_squares_slope(log_x, log_rate);

  Verdict v;
  v.check = check;
  v.status = fail ? VerdictStatus::fail : pass ? VerdictStatus::pass : VerdictStatus::inconclusive;
  v.statistic = statistic.description;
  v.figures = {{"slope_log_ratio", slope},
               {"ci", {lo, hi}},
               {"confidence", options.confidence},
               {"tolerance", tol},
               {"allowed", allowed_range(forbidden, tol)},
               {"bootstrap_resamples", options.bootstrap_resamples},
               {"dropped_resamples", dropped},
               {"observed_slope", least_squares_slope(log_x, log_stat)},
               {"predicted_slope", predicted},
               {"implied_constant", implied_constant},
               {"smallest_ratio", smallest_ratio},
               {"cells", per_cell},
               {"at_chance_excluded", split.excluded},
               {"outside_conditions", all_cells.outside}};
  const std::string stat_name =
      statistic.quantile_level ? fmt::format("q{:g}", *statistic.quantile_level) : "mean";
  std::vector<std::string> per_cell_ratios;
  for (std::size_t i = 0; i < inside.size(); ++i)
    per_cell_ratios.push_back(fmt::format("{:.3g}", ratios[i]));
  const std::string shape = fmt::format(
      "; R per cell ({} = {}): {}{}", check.vary,
      fmt::join([&] {
        std::vector<std::string> xs;
        for (const auto& cell : inside) xs.push_back(fmt::format("{:g}", cell.params.at(check.vary)));
        return xs;
      }(), ", "),
      fmt::join(per_cell_ratios, ", "),
      split.excluded.empty() ? "" : fmt::format("; left out at chance: {}{}", fmt::join(split.excluded, "; "),
                                                split.cause.empty() ? "" : " (" + split.cause + ")"));
  if (check.kind == "slope")
    v.summary = fmt::format(
        "{}: observed log-log slope of {} over {} = {:.3g}, predicted {:.3g}; difference {:.3g}, "
        "{:g}% CI [{:.3g}, {:.3g}], allowed {} ({} cells)",
        to_string(v.status), stat_name, check.vary, slope + predicted, predicted, slope,
        100 * options.confidence, lo, hi, allowed_range(forbidden, tol), inside.size()) + shape;
  else
    v.summary = fmt::format(
        "{}: slope of log({} / rate) over {} = {:.3g}, {:g}% CI [{:.3g}, {:.3g}], allowed {}; "
        "implied constant max R = {:.3g} ({} cells)",
        to_string(v.status), stat_name, check.vary, slope, 100 * options.confidence, lo, hi,
        allowed_range(forbidden, tol), implied_constant, inside.size()) + shape;
  return v;
}

}  // namespace dpb::verify
