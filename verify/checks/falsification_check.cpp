#include "verify/checks/falsification_check.hpp"

#include <fmt/format.h>

#include "verify/checks/bootstrap.hpp"
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

}  // namespace

Verdict check_falsification(const ResultSet& results, const CheckSpec& check, const bounds::Theorem& theorem,
                            std::uint64_t seed, const CheckOptions& options) {
  if (theorem.kind != bounds::Kind::lower || !theorem.explicit_value)
    throw Inconclusive(fmt::format("{} is not a lower bound with an explicit value", theorem.id));
  const auto cells =
      theorem_cells(results, check, theorem, *theorem.explicit_value, "explicit value", options);
  if (cells.inside.empty())
    throw Inconclusive(fmt::format("no cell lies inside the conditions of {}", theorem.id));
  const auto membership = require_membership(check, theorem, cells.inside, options);

  const BootstrapStreams streams{
      seed, results.experiment,
      fmt::format("falsification|{}|{}|{}", check.theorem, check.algorithm, check.metric)};
  bool contradicted = false, all_above = true;
  nlohmann::json per_cell = nlohmann::json::array();
  std::string worst;  // the cell where the mean sits lowest relative to the bound
  double worst_ratio = 0;
  for (const auto& cell : cells.inside) {
    const auto [lo, hi] =
        mean_interval(cell.values, streams, cell.cell, options.bootstrap_resamples, options.confidence);
    const double mean = sample_mean(cell.values), bound = cell.theorem_value;
    contradicted = contradicted || hi < bound;
    all_above = all_above && mean >= bound;
    per_cell.push_back({{"cell", cell.cell},
                        {"trials", cell.values.size()},
                        {"mean", mean},
                        {"ci", {lo, hi}},
                        {"lower_bound", bound},
                        {"ratio", mean / bound}});
    if (worst.empty() || mean / bound < worst_ratio) {
      worst_ratio = mean / bound;
      worst = fmt::format("cell {}: mean {:.3g} ({:g}% CI [{:.3g}, {:.3g}]) vs bound {:.3g}", cell.cell, mean,
                          100 * options.confidence, lo, hi, bound);
    }
  }
  Verdict v;
  v.check = check;
  v.status = contradicted ? VerdictStatus::fail
             : all_above  ? VerdictStatus::pass
                          : VerdictStatus::inconclusive;
  v.statistic = "mean: the lower bound is compared with the algorithm's mean error on its construction";
  v.summary = fmt::format("{}: lowest mean error / explicit lower bound = {:.3g} at {} ({} cells)",
                          to_string(v.status), worst_ratio, worst, cells.inside.size());
  v.figures = {{"cells", per_cell},
               {"smallest_ratio", worst_ratio},
               {"confidence", options.confidence},
               {"bootstrap_resamples", options.bootstrap_resamples},
               {"membership", membership},
               {"outside_conditions", cells.outside}};
  return v;
}

}  // namespace dpb::verify
