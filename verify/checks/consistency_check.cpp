#include "verify/checks/consistency_check.hpp"

#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cmath>
#include <set>

#include "verify/theorems/gaps.hpp"

namespace dpb::verify {

namespace {

// Probabilities no theorem bothers to bound by 1 in a condition. Counts (n, d, k, ...) need no such
// list: compare_bounds rounds them to whole numbers >= 1, so their walk stalls at 1.
const std::set<std::string> kProbabilityParameters = {"delta", "zeta"};

bool counts(const std::string& name, const GapPoint& p) {
  const bool in_range = p.value > 0 && (!kProbabilityParameters.count(name) || p.value < 1);
  return in_range && p.ratio && *p.ratio > 0 && p.failing.empty();
}

// The contiguous run of counted points around the base point (factor 1), along which the variable
// strictly moves, and whether it reaches either end of the walk (open: the domain goes on beyond
// what was explored; a walk that stalls, like a count held at 1, has reached the domain's edge).
struct Run {
  std::size_t first = 0, last = 0;
  bool open_below = false, open_above = false;
};

Run run_around_base(const VariableGap& v, std::size_t base) {
  const auto& p = v.points;
  Run r{base, base, false, false};
  while (r.first > 0 && counts(v.variable, p[r.first - 1]) && p[r.first - 1].value < p[r.first].value)
    --r.first;
  while (r.last + 1 < p.size() && counts(v.variable, p[r.last + 1]) && p[r.last + 1].value > p[r.last].value)
    ++r.last;
  r.open_below = r.first == 0;
  r.open_above = r.last + 1 == v.points.size();
  return r;
}

double log_log_slope(const GapPoint& a, const GapPoint& b) {
  return (std::log(*b.ratio) - std::log(*a.ratio)) / (std::log(b.value) - std::log(a.value));
}

std::vector<double> walk_factors(const CheckOptions& options) {
  std::vector<double> factors;
  for (int j = -options.consistency_steps; j <= options.consistency_steps; ++j)
    factors.push_back(std::pow(options.consistency_step, j));
  return factors;
}

}  // namespace

Verdict check_consistency(const CheckSpec& check, const bounds::Theorem& first, const bounds::Theorem& second,
                          const CheckOptions& options) {
  // Copies without explicit values: compare_bounds would otherwise build a lower bound's construction
  // (a packing in dimension d, ...) at every point of the walk, and only the rates matter here.
  bounds::Theorem upper = first.kind == bounds::Kind::upper ? first : second;
  bounds::Theorem lower = first.kind == bounds::Kind::upper ? second : first;
  upper.explicit_value.reset();
  lower.explicit_value.reset();
  if (!comparable(upper, lower))
    throw Inconclusive(fmt::format(
        "{} and {} are not an upper and a lower bound on the same loss and setting", first.id, second.id));
  GapOptions walk;
  walk.factors = walk_factors(options);
  walk.flat_tolerance = check.tolerance;
  const Gap gap = compare_bounds(upper, lower, walk);
  if (!gap.at_base.ratio || !gap.at_base.failing.empty())
    throw Inconclusive(fmt::format("U/L cannot be evaluated at the example point ({})",
                                   gap.at_base.failing.empty()
                                       ? "a rate is not positive"
                                       : fmt::format("{}", fmt::join(gap.at_base.failing, "; "))));
  const auto base_index = static_cast<std::size_t>(options.consistency_steps);  // factor step^0

  const double tol = check.tolerance;
  std::vector<std::string> falls, grows;
  nlohmann::json variables = nlohmann::json::object();
  for (const auto& v : gap.variables) {
    const Run run = run_around_base(v, base_index);
    if (run.last == run.first) continue;
    const double slope_below = log_log_slope(v.points[run.first], v.points[run.first + 1]);
    const double slope_above = log_log_slope(v.points[run.last - 1], v.points[run.last]);
    if (run.open_above && slope_above < -tol) falls.push_back(fmt::format("{} -> infinity", v.variable));
    if (run.open_below && slope_below > tol) falls.push_back(fmt::format("{} -> 0", v.variable));
    if (v.trend == Trend::grows || v.trend == Trend::shrinks)
      grows.push_back(fmt::format("{} (as it {}, slope {:+.3g})", v.variable,
                                  v.trend == Trend::grows ? "grows" : "falls", v.slope.value_or(0)));
    variables[v.variable] = {{"from", v.points[run.first].value}, {"to", v.points[run.last].value},
                             {"slope", v.slope.value_or(0)},      {"slope_at_min", slope_below},
                             {"slope_at_max", slope_above},       {"open_below", run.open_below},
                             {"open_above", run.open_above}};
  }
  Verdict v;
  v.check = check;
  v.status = falls.empty() ? VerdictStatus::pass : VerdictStatus::fail;
  v.statistic = "none: theorem rates only, no simulation";
  const std::string trend = grows.empty() ? "the gap is flat in every variable"
                                          : fmt::format("the gap grows in {}", fmt::join(grows, ", "));
  v.summary = falls.empty() ? fmt::format("PASS: {} / {} stays bounded below along every variable; {}",
                                          upper.id, lower.id, trend)
                            : fmt::format("FAIL: {} / {} falls towards 0 as {}; {}", upper.id, lower.id,
                                          fmt::join(falls, ", "), trend);
  v.figures = {{"falls", falls}, {"gap_grows", grows}, {"variables", variables}, {"gap", to_json(gap)}};
  return v;
}

}  // namespace dpb::verify
