#include "verify/checks/falsification_check.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "verify/checks/bootstrap.hpp"
#include "verify/checks/error_statistic.hpp"
#include "verify/checks/privacy_class.hpp"
#include "verify/checks/sample_statistics.hpp"
#include "verify/checks/theorem_cells.hpp"

namespace dpb::verify {

namespace {

// Inconclusive unless the algorithm is in every class the theorem applies to, at every cell.
nlohmann::json require_membership(const CheckSpec& check, const bounds::Theorem& theorem,
                                  const std::vector<TheoremCell>& cells, const CheckOptions& options) {
  if (theorem.applies.empty()) throw Inconclusive(fmt::format("{} names no class of algorithms", theorem.id));
  const PrivacyClaimLookup lookup = options.privacy_claim ? options.privacy_claim : registry_privacy_claim;
  nlohmann::json reasons = nlohmann::json::array();
  for (const auto& cell : cells) {
    std::string why;
    const auto claim = lookup(check.algorithm, cell.params, why);
    if (!claim) throw Inconclusive(why);
    for (const auto& privacy_class : theorem.applies) {
      const Membership m = privacy_class_membership(privacy_class, *claim, cell.params);
      if (!m.member) throw Inconclusive(fmt::format("cell {}: {}", cell.cell, m.reason));
      if (!*m.member)
        throw Inconclusive(
            fmt::format("cell {}: {}; the lower bound says nothing about it", cell.cell, m.reason));
      reasons.push_back(m.reason);
    }
  }
  return reasons;
}

// The statistic the bound speaks of: the mean for an expectation theorem; for a with-probability one,
// "Pr[error > value] > zeta", the (1 - zeta) quantile. The mean is no stand-in there (it can sit below
// the value while the theorem holds), so too few trials for the quantile leave the check inconclusive.
ErrorStatistic bound_statistic(const bounds::Theorem& theorem, const std::vector<TheoremCell>& cells,
                               const CheckOptions& options) {
  std::size_t fewest = cells.front().values.size();
  for (const auto& cell : cells) fewest = std::min(fewest, cell.values.size());
  ErrorStatistic statistic = choose_statistic(theorem.semantics, fewest, options.quantile_trials_factor);
  if (theorem.semantics.high_probability && !statistic.quantile_level)
    throw Inconclusive(fmt::format("{} bounds a quantile, not the mean; {}", theorem.id, statistic.description));
  return statistic;
}

}  // namespace

Verdict check_falsification(const ResultSet& results, const CheckSpec& check, const bounds::Theorem& theorem,
                            std::uint64_t seed, const CheckOptions& options) {
  if (theorem.kind != bounds::Kind::lower || !theorem.explicit_value)
    throw Inconclusive(fmt::format("{} is not a lower bound with an explicit value", theorem.id));
  const auto cells =
      theorem_cells(results, check, theorem, *theorem.explicit_value, "explicit value", options);
  const auto membership = require_membership(check, theorem, cells.inside, options);
  const ErrorStatistic statistic = bound_statistic(theorem, cells.inside, options);
  const std::string name = statistic.quantile_level ? fmt::format("quantile {:g}", *statistic.quantile_level)
                                                     : std::string("mean");

  const BootstrapStreams streams{
      seed, results.experiment,
      fmt::format("falsification|{}|{}|{}", check.theorem, check.algorithm, check.metric)};
  bool contradicted = false, all_above = true;
  nlohmann::json per_cell = nlohmann::json::array();
  std::string worst;  // the cell where the mean sits lowest relative to the bound
  double worst_ratio = 0;
  for (const auto& cell : cells.inside) {
    const auto [lo, hi] = statistic_interval(cell.values, streams, cell.cell, options.bootstrap_resamples,
                                             options.confidence, statistic);
    const double value = statistic(cell.values), bound = cell.theorem_value;
    contradicted = contradicted || hi < bound;
    all_above = all_above && value >= bound;
    per_cell.push_back({{"cell", cell.cell},
                        {"trials", cell.values.size()},
                        {"statistic", value},
                        {"ci", {lo, hi}},
                        {"lower_bound", bound},
                        {"ratio", value / bound}});
    if (worst.empty() || value / bound < worst_ratio) {
      worst_ratio = value / bound;
      worst = fmt::format("cell {}: {} {:.3g} ({:g}% CI [{:.3g}, {:.3g}]) vs bound {:.3g}", cell.cell, name,
                          value, 100 * options.confidence, lo, hi, bound);
    }
  }
  Verdict v;
  v.check = check;
  v.status = contradicted ? VerdictStatus::fail
             : all_above  ? VerdictStatus::pass
                          : VerdictStatus::inconclusive;
  v.statistic = statistic.description + "; compared with the explicit lower bound on its construction";
  v.summary = fmt::format("{}: lowest {} error / explicit lower bound = {:.3g} at {} ({} cells)",
                          to_string(v.status), name, worst_ratio, worst, cells.inside.size());
  v.figures = {{"cells", per_cell},
               {"smallest_ratio", worst_ratio},
               {"confidence", options.confidence},
               {"bootstrap_resamples", options.bootstrap_resamples},
               {"membership", membership},
               {"outside_conditions", cells.outside}};
  return v;
}

}  // namespace dpb::verify
