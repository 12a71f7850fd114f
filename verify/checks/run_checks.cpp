#include "verify/checks/run_checks.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "verify/theorems/bound_evaluation.hpp"
#include "verify/checks/consistency_check.hpp"
#include "verify/checks/dominates_check.hpp"
#include "verify/checks/exponent_check.hpp"
#include "verify/checks/falsification_check.hpp"
#include "verify/checks/rate_check.hpp"
#include "verify/checks/upper_falsification.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {

namespace {

// The fields each kind needs; a missing one is a mistake in the experiment, not in the data.
void validate(const CheckSpec& c) {
  auto require = [&](const std::string& value, const char* field) {
    if (value.empty())
      throw InvalidArgument(fmt::format("a '{}' check on theorem '{}' needs '{}'", c.kind, c.theorem, field));
  };
  if (c.kind != "rate" && c.kind != "slope" && c.kind != "falsification" && c.kind != "consistency" &&
      c.kind != "dominates" && c.kind != "exponent")
    throw InvalidArgument(fmt::format(
        "unknown check kind '{}' (allowed: rate, slope, falsification, consistency, dominates, exponent)", c.kind));
  // dominates compares two algorithms, exponent one algorithm with a stated power law
  if (c.kind != "dominates" && c.kind != "exponent") require(c.theorem, "theorem");
  if (c.kind == "consistency") {
    require(c.against, "against");
    return;
  }
  require(c.algorithm, "algorithm");
  require(c.metric, "metric");
  if (c.kind == "dominates")
    require(c.against, "against");
  else if (c.kind != "falsification")
    require(c.vary, "vary");
  if (c.kind == "exponent" && c.side != "both" && c.side != "at_least" && c.side != "at_most")
    throw InvalidArgument(
        fmt::format("an exponent check's side must be both, at_least or at_most, got '{}'", c.side));
  if (!(c.tolerance >= 0))
    throw InvalidArgument(fmt::format("a check's tolerance must be >= 0, got {}", c.tolerance));
}

// An unknown id is INCONCLUSIVE (find_theorem's message suggests the nearest ids), not an error:
// the catalogue may lack a theorem an older experiment names.
const bounds::Theorem& require_theorem(const TheoremList& theorems, const std::string& id) {
  try {
    return find_theorem(theorems, id);
  } catch (const InvalidArgument& e) {
    throw Inconclusive(e.what());
  }
}

Verdict run_one(const ResultSet& results, const CheckSpec& check, std::uint64_t seed,
                const TheoremList& theorems, const CheckOptions& options) {
  if (check.kind == "dominates") return check_dominates(results, check, seed, options);
  if (check.kind == "exponent") return check_exponent(results, check, seed, options);
  const auto& theorem = require_theorem(theorems, check.theorem);
  if (check.kind == "consistency")
    return check_consistency(check, theorem, require_theorem(theorems, check.against), options);
  if (check.kind == "falsification")
    return theorem.kind == bounds::Kind::upper ? check_upper_falsification(results, check, theorem, seed, options)
                                               : check_falsification(results, check, theorem, seed, options);
  return check_rate_or_slope(results, check, theorem, seed, options);
}

std::vector<Verdict> run_all(const ResultSet& results, const std::vector<CheckSpec>& checks,
                             std::uint64_t seed, const TheoremList& theorems, const CheckOptions& options) {
  validate(options);
  for (const auto& check : checks) validate(check);
  std::vector<Verdict> verdicts;
  for (const auto& check : checks) {
    Verdict v;
    try {
      v = run_one(results, check, seed, theorems, options);
    } catch (const Inconclusive& why) {
      v.check = check;
      v.statistic = "none";
      v.summary = fmt::format("INCONCLUSIVE: {}", why.what());
      v.figures = {{"reason", why.what()}};
    }
    if (!check.override_reason.empty()) v.summary = fmt::format("[override: {}] {}", check.override_reason, v.summary);
    if (!check.note.empty() && v.status != VerdictStatus::pass)
      v.summary += fmt::format(" (known reason: {})", check.note);
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

}  // namespace

std::vector<Verdict> run_checks(const ResultSet& results, const std::vector<CheckSpec>& checks,
                                std::uint64_t seed) {
  return run_all(results, checks, seed, all_theorems(), {});
}

std::vector<Verdict> run_checks(const ResultSet& results, const std::vector<CheckSpec>& checks,
                                std::uint64_t seed, const std::vector<bounds::Theorem>& theorems,
                                const CheckOptions& options) {
  TheoremList list;
  for (const auto& t : theorems) list.push_back(&t);
  return run_all(results, checks, seed, list, options);
}

}  // namespace dpb::verify
