#include "verify/theorems/gaps.hpp"

#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/errors.hpp"
#include "verify/theorems/bound_evaluation.hpp"
#include "verify/checks/sample_statistics.hpp"

namespace dpb::verify {
namespace {

using bounds::Params;
using bounds::Theorem;

// Two rates are "the same" (the variable does not enter them) within this relative difference.
constexpr double kSameRate = 1e-12;

// One theorem at one point: its rate where defined, and what fails (conditions, or the domain error).
std::optional<double> evaluate_side(const Theorem& t, const Params& p, std::vector<std::string>& failing) {
  try {
    const auto e = evaluate_bound(t, p, ExplicitValue::skip);
    for (const auto& c : e.conditions)
      if (!c.holds) failing.push_back(fmt::format("{}: {}", t.id, c.name));
    return e.rate;
  } catch (const InvalidArgument& e) {
    failing.push_back(e.what());  // already names the theorem
    return std::nullopt;
  }
}

GapPoint evaluate_point(const Theorem& upper, const Theorem& lower, const Params& p, double factor,
                        double value) {
  GapPoint point{factor, value, {}, {}, {}, {}};
  point.upper_rate = evaluate_side(upper, p, point.failing);
  point.lower_rate = evaluate_side(lower, p, point.failing);
  if (point.upper_rate && point.lower_rate && *point.lower_rate > 0)
    point.ratio = *point.upper_rate / *point.lower_rate;
  return point;
}

// The base point (see compare_bounds in gaps.hpp) and the evaluation there.
std::pair<Params, GapPoint> choose_base(const Theorem& upper, const Theorem& lower) {
  Params base = upper.example;
  base.insert(lower.example.begin(), lower.example.end());  // insert keeps the upper bound's values
  GapPoint at_base = evaluate_point(upper, lower, base, 1, 1);
  for (const auto& [name, value] : lower.example) {
    if (base.at(name) == value) continue;
    Params other = base;
    other[name] = value;
    auto at_other = evaluate_point(upper, lower, other, 1, 1);
    if (at_other.failing.size() < at_base.failing.size())
      base = std::move(other), at_base = std::move(at_other);
  }
  return {base, at_base};
}

double scaled(const std::string& name, double base, double factor, const GapOptions& options) {
  const auto& whole = options.whole_numbers;
  if (std::find(whole.begin(), whole.end(), name) == whole.end()) return base * factor;
  return std::max(1.0, std::round(base * factor));
}

bool differs(const std::optional<double>& rate, const std::optional<double>& base) {
  if (rate.has_value() != base.has_value()) return true;
  return rate && std::abs(*rate - *base) > kSameRate * std::max(std::abs(*rate), std::abs(*base));
}

// Least-squares slope of log ratio vs log(value / base) over the points with a positive ratio (and, with
// `holding_only`, where every condition holds).
std::optional<double> fit_slope(const VariableGap& v, bool holding_only) {
  std::vector<double> x, y;
  for (const auto& p : v.points)
    if (p.ratio && *p.ratio > 0 && (p.failing.empty() || !holding_only)) {
      x.push_back(std::log(p.value / v.base));
      y.push_back(std::log(*p.ratio));
    }
  // No slope through fewer than two points or over a single x value.
  if (x.size() < 2 || std::all_of(x.begin(), x.end(), [&](double xi) { return xi == x.front(); }))
    return std::nullopt;
  return least_squares_slope(x, y);
}

Trend trend_of(const std::optional<double>& slope, double tolerance) {
  if (!slope) return Trend::unknown;
  if (*slope > tolerance) return Trend::grows;
  if (*slope < -tolerance) return Trend::shrinks;
  return Trend::flat;
}

std::string semantics_text(const Gap& g) {
  const auto u = to_string(g.upper->semantics), l = to_string(g.lower->semantics);
  return g.mixed_semantics ? fmt::format("upper {}, lower {} (mixed: compared as rates)", u, l) : u;
}

// '*' marks a slope fitted over points where conditions fail (fewer than two points where all hold).
std::string slope_text(const VariableGap& v) {
  return v.slope ? fmt::format("{:+.2f}{}", *v.slope, v.slope_ignores_conditions ? "*" : "") : "n/a";
}

// "grows in d (+0.50); flat in eps, n; shrinks in ...; unknown in ..." — the line a reader looks for. A
// trend drawn from points where a condition fails is marked '*' and said to be outside the theorems; when
// every trend is, the line says first that the theorems draw no conclusion here.
std::string verdict_text(const Gap& g) {
  std::vector<std::string> parts;
  std::size_t outside = 0;
  for (Trend trend : {Trend::grows, Trend::shrinks, Trend::flat, Trend::unknown}) {
    std::vector<std::string> names;
    for (const auto& v : g.variables)
      if (v.trend == trend) {
        outside += v.slope_ignores_conditions;
        names.push_back(trend == Trend::flat ? v.variable + (v.slope_ignores_conditions ? "*" : "")
                                             : fmt::format("{} ({})", v.variable, slope_text(v)));
      }
    if (!names.empty()) parts.push_back(fmt::format("{} in {}", to_string(trend), fmt::join(names, ", ")));
  }
  if (parts.empty()) return "neither rate depends on a varied parameter";
  const std::string trends = fmt::format("{}", fmt::join(parts, "; "));
  if (outside == 0) return trends;
  if (outside == g.variables.size())
    return "no conclusion inside the theorems' conditions (no variable has two points where every condition holds); "
           "outside them: " +
           trends;
  return trends + " (* drawn where a condition fails: outside the theorems)";
}

// A point's ratio; '*' marks a point where a condition fails (left out of the slope), '-' an undefined ratio.
std::string ratio_cell(const GapPoint& p) {
  if (!p.ratio) return "-";
  return fmt::format("{:.4g}{}", *p.ratio, p.failing.empty() ? "" : "*");
}

// One line per failing condition (or domain error): where it fails, e.g. "at d x0.25, n x4", or "at the
// base point and everywhere except eps x0.25".
std::vector<std::string> failures_text(const Gap& g) {
  std::vector<std::pair<const GapPoint*, std::string>> points = {{&g.at_base, "the base point"}};
  for (const auto& v : g.variables)
    for (const auto& p : v.points) points.emplace_back(&p, fmt::format("{} x{:g}", v.variable, p.factor));
  std::vector<std::string> reasons;
  for (const auto& [point, where] : points)
    for (const auto& reason : point->failing)
      if (std::find(reasons.begin(), reasons.end(), reason) == reasons.end()) reasons.push_back(reason);
  std::vector<std::string> out;
  for (const auto& reason : reasons) {
    std::vector<std::string> failing_at, holding_at;
    for (const auto& [point, where] : points) {
      const bool fails =
          std::find(point->failing.begin(), point->failing.end(), reason) != point->failing.end();
      (fails ? failing_at : holding_at).push_back(where);
    }
    if (failing_at.front() != "the base point")
      out.push_back(fmt::format("{}: at {}", reason, fmt::join(failing_at, ", ")));
    else if (holding_at.empty())
      out.push_back(fmt::format("{}: everywhere", reason));
    else
      out.push_back(
          fmt::format("{}: at the base point and everywhere except {}", reason, fmt::join(holding_at, ", ")));
  }
  return out;
}

std::string factors_header(const Gap& g) {
  std::vector<std::string> cells;
  if (!g.variables.empty())
    for (const auto& p : g.variables.front().points) cells.push_back(fmt::format("x{:g}", p.factor));
  return fmt::format("{}", fmt::join(cells, " "));
}

std::string gap_text(const Gap& g) {
  std::string out = fmt::format("{} (upper) vs {} (lower)\n  loss {}, setting {}, semantics {}\n  base  {}\n",
                                g.upper->id, g.lower->id, to_string(g.upper->loss), g.upper->setting,
                                semantics_text(g), bounds::params_text(g.base));
  out += fmt::format(
      "  U/L at base = {}{}\n", ratio_cell(g.at_base),
      g.at_base.failing.empty() ? "" : fmt::format("  (fails: {})", fmt::join(g.at_base.failing, "; ")));
  out += fmt::format("  {:<10} {:>10} {:>7}  {:<8} U/L at {}\n", "variable", "base", "slope", "trend",
                     factors_header(g));
  for (const auto& v : g.variables) {
    std::vector<std::string> cells;
    for (const auto& p : v.points) cells.push_back(ratio_cell(p));
    out += fmt::format("  {:<10} {:>10.4g} {:>7}  {:<8} {}\n", v.variable, v.base, slope_text(v),
                       to_string(v.trend), fmt::join(cells, " "));
  }
  out += fmt::format("  => {}\n", verdict_text(g));
  for (const auto& f : failures_text(g)) out += fmt::format("  * {}\n", f);
  return out;
}

std::string gap_md(const Gap& g) {
  std::string out = fmt::format(
      "### {} vs {}\n\nloss {}, setting `{}`, semantics {}; base: {}; U/L at base = {}.\n\n"
      "| variable | base | slope | trend | U/L at {} |\n|---|---|---|---|---|\n",
      g.upper->id, g.lower->id, to_string(g.upper->loss), g.upper->setting, semantics_text(g),
      bounds::params_text(g.base), ratio_cell(g.at_base), factors_header(g));
  auto md_escape = [](const std::string& text) {  // a bare '*' would start emphasis
    std::string escaped;
    for (char c : text) {
      if (c == '*') escaped += '\\';
      escaped += c;
    }
    return escaped;
  };
  for (const auto& v : g.variables) {
    std::vector<std::string> cells;
    for (const auto& p : v.points) cells.push_back(md_escape(ratio_cell(p)));
    out += fmt::format("| {} | {:.4g} | {} | {} | {} |\n", v.variable, v.base, md_escape(slope_text(v)),
                       to_string(v.trend), fmt::join(cells, " "));
  }
  out += fmt::format("\n**{}**\n", verdict_text(g));
  const auto failures = failures_text(g);
  if (!failures.empty()) out += "\nConditions fail at (marked `*`, left out of the slopes):\n\n";
  for (const auto& f : failures) out += fmt::format("- {}\n", f);
  return out;
}

nlohmann::json optional_json(const std::optional<double>& x) {
  return x ? nlohmann::json(*x) : nlohmann::json(nullptr);
}

nlohmann::json point_json(const GapPoint& p) {
  return {{"factor", p.factor},
          {"value", p.value},
          {"upper_rate", optional_json(p.upper_rate)},
          {"lower_rate", optional_json(p.lower_rate)},
          {"ratio", optional_json(p.ratio)},
          {"failing", p.failing}};
}

}  // namespace

std::string to_string(Trend trend) {
  switch (trend) {
    case Trend::flat:
      return "flat";
    case Trend::grows:
      return "grows";
    case Trend::shrinks:
      return "shrinks";
    case Trend::unknown:
      return "unknown";
  }
  return "?";
}

bool comparable(const Theorem& upper, const Theorem& lower) {
  return upper.kind == bounds::Kind::upper && lower.kind == bounds::Kind::lower && !upper.setting.empty() &&
         upper.setting == lower.setting && upper.loss.name == lower.loss.name &&
         upper.loss.q == lower.loss.q && upper.loss.normalized_by_rank == lower.loss.normalized_by_rank;
}

Gap compare_bounds(const Theorem& upper, const Theorem& lower, const GapOptions& options) {
  Gap g;
  g.upper = &upper;
  g.lower = &lower;
  g.mixed_semantics = upper.semantics.high_probability != lower.semantics.high_probability;
  g.flat_tolerance = options.flat_tolerance;
  std::tie(g.base, g.at_base) = choose_base(upper, lower);
  for (const auto& [name, base_value] : g.base) {
    if (base_value == 0) continue;  // scaling cannot move it
    VariableGap v{name, base_value, {}, std::nullopt, false, Trend::unknown};
    bool used = false;
    for (double factor : options.factors) {
      auto p = g.base;
      p[name] = scaled(name, base_value, factor, options);
      v.points.push_back(evaluate_point(upper, lower, p, factor, p[name]));
      used = used || differs(v.points.back().upper_rate, g.at_base.upper_rate) ||
             differs(v.points.back().lower_rate, g.at_base.lower_rate);
    }
    if (!used) continue;
    v.slope = fit_slope(v, true);
    if (!v.slope) v.slope = fit_slope(v, false), v.slope_ignores_conditions = v.slope.has_value();
    v.trend = trend_of(v.slope, options.flat_tolerance);
    g.variables.push_back(std::move(v));
  }
  return g;
}

std::vector<Gap> find_gaps(const TheoremList& theorems, const GapOptions& options) {
  std::vector<Gap> gaps;
  for (const auto* upper : theorems)
    for (const auto* lower : theorems)
      if (comparable(*upper, *lower)) gaps.push_back(compare_bounds(*upper, *lower, options));
  return gaps;
}

nlohmann::json to_json(const Gap& g) {
  nlohmann::json variables = nlohmann::json::array();
  for (const auto& v : g.variables) {
    nlohmann::json points = nlohmann::json::array();
    for (const auto& p : v.points) points.push_back(point_json(p));
    variables.push_back({{"variable", v.variable},
                         {"base", v.base},
                         {"slope", optional_json(v.slope)},
                         {"slope_ignores_conditions", v.slope_ignores_conditions},
                         {"trend", to_string(v.trend)},
                         {"points", points}});
  }
  auto at_base = point_json(g.at_base);
  at_base.erase("factor");  // the base point is no single variable's scaling
  at_base.erase("value");
  return {{"upper", g.upper->id},
          {"lower", g.lower->id},
          {"loss", to_string(g.upper->loss)},
          {"setting", g.upper->setting},
          {"upper_semantics", to_string(g.upper->semantics)},
          {"lower_semantics", to_string(g.lower->semantics)},
          {"mixed_semantics", g.mixed_semantics},
          {"flat_tolerance", g.flat_tolerance},
          {"base", g.base},
          {"at_base", at_base},
          {"variables", variables},
          {"summary", verdict_text(g)}};
}

std::string gaps_report(const std::vector<Gap>& gaps, TableFormat format) {
  if (format == TableFormat::json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& g : gaps) out.push_back(to_json(g));
    return out.dump(2) + "\n";
  }
  if (format == TableFormat::tex) throw InvalidArgument("gaps prints text, md or json, not tex");
  if (gaps.empty()) return "no upper and lower bound share a loss and setting\n";
  const auto legend = fmt::format(
      "slope = d log(U/L) / d log(x); |slope| <= {:g} reads as flat (constants and polylogs); '*' marks a "
      "ratio "
      "where a condition fails (left out of the slope), or a slope that had to use such points.\n",
      gaps.front().flat_tolerance);
  std::string out = format == TableFormat::md ? "## Gaps between upper and lower bounds\n\n" : "";
  out += legend;
  for (const auto& g : gaps) {
    out += "\n";
    out += format == TableFormat::md ? gap_md(g) : gap_text(g);
  }
  return out;
}

}  // namespace dpb::verify
