#pragma once
// What `dpbounds gaps` prints: for every upper bound U and lower bound L on the same loss and setting,
// how the ratio U.rate / L.rate moves when each parameter is scaled around a base point — the DESIGN.md
// §5 "consistency" check without simulation. A slope of log(U/L) vs log(x) near 0 means U and L agree in
// x up to constants and polylogarithmic factors; a positive slope means the gap grows with x.
//
// Semantics: U and L are paired even when one holds with probability 1 - zeta and the other in
// expectation (the papers state them so, e.g. liu2022 Cor 5.2 vs Thm 5.3); such a pair is marked
// `mixed_semantics`. For a loss bounded by B (sin, projector losses), U w.p. 1 - zeta gives
// E loss <= U + zeta B, so the rates compare up to that additive term; for unbounded losses read the
// comparison as one of rates only.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bounds/theorem.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {

struct GapOptions {
  // Each variable is scaled by these factors around the base point (1 is the base point itself).
  std::vector<double> factors = {0.25, 0.5, 1, 2, 4};
  // |slope| <= flat_tolerance reads as "flat": constants and polylogs only. A polylog (log x)^a adds a
  // slope of about a / ln x, under 0.22 for a <= 1 and x >= 100 over the factors above, while the
  // smallest polynomial gap these papers exhibit is x^(1/2); 0.25 separates the two.
  double flat_tolerance = 0.25;
  // Parameters that count things: their scaled values are rounded to whole numbers >= 1, so that a
  // construction that needs an integer (a packing in dimension d) stays defined; slopes use the values
  // actually taken.
  std::vector<std::string> whole_numbers = {"n", "d", "p", "k", "r", "s", "B", "T"};
};

enum class Trend { flat, grows, shrinks, unknown };  // unknown: fewer than two points where conditions hold
std::string to_string(Trend trend);

struct GapPoint {
  double factor = 1;
  double value = 0;                              // the variable's value at this point
  std::optional<double> upper_rate, lower_rate;  // empty where the parameters leave a theorem's domain
  std::optional<double> ratio;                   // U.rate / L.rate, when both are defined and L.rate > 0
  // "<theorem id>: <condition name>" per failing condition, or the domain error; empty when all hold.
  std::vector<std::string> failing;
};

struct VariableGap {
  std::string variable;
  double base = 0;
  std::vector<GapPoint> points;  // one per factor, in order
  // Least squares of log ratio vs log(value / base) over the points where every condition holds; when
  // fewer than two such points exist, over every point with a ratio, and `slope_ignores_conditions` says so.
  std::optional<double> slope;
  bool slope_ignores_conditions = false;
  Trend trend = Trend::unknown;
};

struct Gap {
  const bounds::Theorem* upper = nullptr;
  const bounds::Theorem* lower = nullptr;
  bool mixed_semantics = false;
  double flat_tolerance = 0;           // the GapOptions value the trends were read with
  bounds::Params base;                 // both example points merged
  GapPoint at_base;                    // the base point itself
  std::vector<VariableGap> variables;  // those at least one of the two rates depends on (and not 0 at base)
};

// Same loss (name, q, normalisation), same non-empty setting, one upper and one lower bound.
bool comparable(const bounds::Theorem& upper, const bounds::Theorem& lower);

// The base point is the union of both example points. Where they share a name with different values,
// the upper bound's value stays unless the lower bound's makes fewer conditions fail (names in order).
Gap compare_bounds(const bounds::Theorem& upper, const bounds::Theorem& lower,
                   const GapOptions& options = {});

// Every comparable (upper, lower) pair among `theorems`, upper bounds in order, then lower bounds.
std::vector<Gap> find_gaps(const TheoremList& theorems, const GapOptions& options = {});

// text, md or json (tex is a dpb::InvalidArgument).
std::string gaps_report(const std::vector<Gap>& gaps, TableFormat format);
nlohmann::json to_json(const Gap& gap);

}  // namespace dpb::verify
