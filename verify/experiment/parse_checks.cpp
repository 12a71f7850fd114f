// `checks:` and `report:` sections of an experiment (docs/experiments.md).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "verify/theorems/bound_evaluation.hpp"
#include "verify/experiment/catalog.hpp"
#include "verify/checks/check_applicability.hpp"
#include "verify/experiment/parse_sections.hpp"
#include "verify/experiment/suggest.hpp"
#include "verify/report/tables.hpp"

namespace dpb::verify::detail {
namespace {

const std::vector<std::string> kCheckKinds = {"rate", "slope", "falsification", "consistency", "dominates",
                                               "exponent"};
const std::vector<std::string> kExponentSides = {"both", "at_least", "at_most"};
const std::vector<std::string> kLogAxes = {"xy", "x", "y", "none"};

// `name` if it is one of `allowed`; otherwise a failure at `node` naming the nearest.
std::string one_of(const YAML::Node& node, const YamlReader& read, const std::string& what,
                   const std::vector<std::string>& allowed) {
  const std::string value = read.text(node, what);
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    read.fail(node, fmt::format("unknown {} '{}'{}", what, value, suggestion(value, allowed)));
  return value;
}

std::vector<std::string> swept_axes(const ExperimentSpec& spec) {
  std::vector<std::string> axes;
  for (const auto& group : spec.grid) axes.insert(axes.end(), group.axes.begin(), group.axes.end());
  return axes;
}

// A check names an algorithm by its label, or by its bare id when the experiment lists that id once.
std::string algorithm_label(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  const std::string name = read.text(node, "check algorithm");
  std::vector<std::string> labels, matches;
  for (const auto& a : spec.algorithms) {
    labels.push_back(a.label);
    if (a.label == name) return name;
    if (a.id == name) matches.push_back(a.label);
  }
  if (matches.size() == 1) return matches.front();
  if (matches.size() > 1)
    read.fail(node, fmt::format("'{}' is listed {} times with different parameters; name one of them by its label "
                                "(e.g. '{}')", name, matches.size(), matches.front()));
  read.fail(node, fmt::format("check algorithm '{}' is not among the experiment's algorithms{}", name,
                              suggestion(name, labels)));
}

double tolerance(const YAML::Node& node, const YamlReader& read) {
  const double value = read.number(node, "tolerance");
  if (value < 0) read.fail(node, "tolerance must be >= 0");
  return value;
}

// `where: { lambda: [2, 5] }`: an inclusive [min, max] range per swept axis.
std::map<std::string, std::pair<double, double>> parse_where(const YAML::Node& node, const YamlReader& read,
                                                             const ExperimentSpec& spec) {
  if (!node.IsMap()) read.fail(node, "where must be a mapping of swept axes to [min, max] ranges, e.g. { lambda: [2, 5] }");
  std::map<std::string, std::pair<double, double>> where;
  for (const auto& entry : node) {
    const std::string axis = one_of(entry.first, read, "grid axis", swept_axes(spec));
    const auto range = read.numbers(entry.second, "a where range");
    if (range.size() != 2 || range[0] > range[1])
      read.fail(entry.second, fmt::format("the range of {} must be [min, max] with min <= max", axis));
    where[axis] = {range[0], range[1]};
  }
  return where;
}

// `{ kind: dominates, algorithm: A, against: B, metric: M, tolerance: t, where: {axis: [min, max]} }`:
// two algorithms, no theorem.
CheckSpec parse_dominates(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  read.require_map(node, "a dominates check", {"kind", "algorithm", "against", "metric", "tolerance", "where", "note"});
  for (const char* required : {"algorithm", "against", "metric"})
    if (!node[required]) read.fail(node, fmt::format("a dominates check needs '{}'", required));
  CheckSpec check;
  check.kind = "dominates";
  check.algorithm = algorithm_label(node["algorithm"], read, spec);
  check.against = algorithm_label(node["against"], read, spec);
  if (check.against == check.algorithm) read.fail(node["against"], "a dominates check compares two different algorithms");
  check.metric = one_of(node["metric"], read, "metric (of this experiment's metrics:)", spec.metrics);
  check.tolerance = node["tolerance"] ? tolerance(node["tolerance"], read) : 0;
  if (node["where"]) check.where = parse_where(node["where"], read, spec);
  return check;
}

// `params: { name: number, ... }`: theorem constants fixed for every cell. What varies from cell to cell
// (the privacy budget, n, a swept axis) cannot be fixed; a name the model publishes is refused when the
// check runs (theorem_cells), where the cells are known.
std::map<std::string, double> check_params(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  if (!node.IsMap()) read.fail(node, "check params must be a map of names to numbers, e.g. { M: 150, lr_mult: 1 }");
  std::vector<std::string> per_cell = {"n", "epsilon", "delta"};
  const std::vector<std::string> axes = swept_axes(spec);
  per_cell.insert(per_cell.end(), axes.begin(), axes.end());
  std::map<std::string, double> params;
  for (const auto& entry : node) {
    const std::string name = read.text(entry.first, "check param name");
    if (name == "eps")  // the theorems' old name for it: no theorem reads it, so it would pass unread
      read.fail(entry.first, "check param 'eps': the privacy budget is 'epsilon', and it varies from cell to cell");
    if (std::find(per_cell.begin(), per_cell.end(), name) != per_cell.end())
      read.fail(entry.first, fmt::format("check param '{}' varies from cell to cell (the privacy budget, n and the "
                                         "grid axes); params fixes constants no cell carries", name));
    params[name] = read.number(entry.second, fmt::format("check param '{}'", name));
  }
  return params;
}

// `{ kind: exponent, algorithm: A, metric: M, vary: x, exponent: s, side: both, tolerance: t }`: a power law,
// no theorem.
CheckSpec parse_exponent(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  read.require_map(node, "an exponent check", {"kind", "algorithm", "metric", "vary", "exponent", "side", "tolerance", "note"});
  for (const char* required : {"algorithm", "metric", "vary", "exponent"})
    if (!node[required]) read.fail(node, fmt::format("an exponent check needs '{}'", required));
  CheckSpec check;
  check.kind = "exponent";
  check.algorithm = algorithm_label(node["algorithm"], read, spec);
  check.metric = one_of(node["metric"], read, "metric (of this experiment's metrics:)", spec.metrics);
  check.vary = one_of(node["vary"], read, "grid axis", swept_axes(spec));
  check.exponent = read.number(node["exponent"], "exponent");
  if (node["side"]) check.side = one_of(node["side"], read, "exponent side", kExponentSides);
  if (node["tolerance"]) check.tolerance = tolerance(node["tolerance"], read);
  return check;
}

CheckSpec parse_check_fields(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec);

CheckSpec parse_check(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  CheckSpec check = parse_check_fields(node, read, spec);
  if (node.IsMap() && node["note"]) check.note = read.text(node["note"], "note");
  return check;
}

CheckSpec parse_check_fields(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  CheckSpec check;
  if (node.IsMap() && node["kind"]) check.kind = one_of(node["kind"], read, "check kind", kCheckKinds);
  if (check.kind == "dominates") return parse_dominates(node, read, spec);
  if (check.kind == "exponent") return parse_exponent(node, read, spec);
  if (node.IsMap() && node["where"])
    read.fail(node["where"], fmt::format("'where' applies to dominates checks only, not {}", check.kind));
  read.require_map(node, "a check",
                   {"kind", "theorem", "algorithm", "metric", "vary", "against", "tolerance", "optimal", "params",
                    "override", "note"});
  const std::vector<std::string> theorems = catalog_ids("theorems");
  if (!node["theorem"]) read.fail(node, "a check needs a theorem");
  check.theorem = one_of(node["theorem"], read, "theorem", theorems);
  const bool consistency = check.kind == "consistency";
  if (consistency) {
    if (!node["against"]) read.fail(node, "a consistency check needs 'against': the other theorem");
    check.against = one_of(node["against"], read, "theorem", theorems);
    if (node["params"]) read.fail(node["params"], "a consistency check reads no cells; params belong to rate, slope and falsification checks");
    return check;
  }
  for (const char* required : {"algorithm", "metric"})
    if (!node[required]) read.fail(node, fmt::format("a {} check needs '{}'", check.kind, required));
  check.algorithm = algorithm_label(node["algorithm"], read, spec);
  check.metric = one_of(node["metric"], read, "metric (of this experiment's metrics:)", spec.metrics);
  if (check.kind == "rate" || check.kind == "slope") {
    if (!node["vary"]) read.fail(node, fmt::format("a {} check needs 'vary': the swept grid axis", check.kind));
    check.vary = one_of(node["vary"], read, "grid axis", swept_axes(spec));
  }
  if (node["tolerance"]) check.tolerance = tolerance(node["tolerance"], read);
  if (node["optimal"]) check.optimal = read.boolean(node["optimal"], "optimal");
  if (node["params"]) check.params = check_params(node["params"], read, spec);
  if (node["override"]) check.override_reason = read.text(node["override"], "override");
  const auto labelled = std::find_if(spec.algorithms.begin(), spec.algorithms.end(),
                                     [&](const auto& a) { return a.label == check.algorithm; });
  const std::string problem =
      applicability_problem(check, labelled->id, find_theorem(all_theorems(), check.theorem));
  if (!problem.empty() && check.override_reason.empty())
    read.fail(node, problem + "; to run the check anyway, give the reason in override: '...'");
  if (problem.empty() && !check.override_reason.empty())
    read.fail(node["override"], "override is for a check whose metric or algorithm its theorem does not speak about; "
                                "this one matches: remove it");
  return check;
}

TableSpec parse_table(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  read.require_map(node, "a report table", {"rows", "columns", "stat", "metrics", "best"});
  std::vector<std::string> dimensions = swept_axes(spec);
  dimensions.push_back("algorithm");
  TableSpec table;
  if (node["rows"]) table.rows = one_of(node["rows"], read, "table rows", dimensions);
  if (node["columns"]) table.columns = one_of(node["columns"], read, "table columns", dimensions);
  if (node["stat"]) table.stat = one_of(node["stat"], read, "table stat", table_stat_names());
  if (node["metrics"]) {
    read.require_sequence(node["metrics"], "table metrics");
    for (const auto& m : node["metrics"]) table.metrics.push_back(one_of(m, read, "metric", spec.metrics));
  }
  if (node["best"]) {
    table.best = one_of(node["best"], read, "table best", {"min", "max"});
    if (table.rows != "algorithm" && table.columns != "algorithm")
      read.fail(node["best"], "best marks the best algorithm of each cell: make algorithm the rows or the columns");
  }
  return table;
}

FigureSpec parse_figure(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  read.require_map(node, "a report figure", {"x", "y", "log", "theorem", "style"});
  FigureSpec figure;
  if (node["x"]) figure.x = one_of(node["x"], read, "figure x", swept_axes(spec));
  if (!node["y"]) read.fail(node, "a figure needs y: a metric");
  figure.y = one_of(node["y"], read, "metric", spec.metrics);
  if (node["log"]) {
    const std::string log = one_of(node["log"], read, "figure log axes", kLogAxes);
    figure.log_x = log == "xy" || log == "x";
    figure.log_y = log == "xy" || log == "y";
  }
  if (node["theorem"]) figure.theorem = one_of(node["theorem"], read, "theorem", catalog_ids("theorems"));
  if (node["style"]) figure.boxplot = one_of(node["style"], read, "figure style", {"lines", "boxplot"}) == "boxplot";
  if (figure.boxplot && !figure.theorem.empty())
    read.fail(node["theorem"], "a boxplot draws no reference line: remove theorem, or draw the figure as lines");
  return figure;
}

// `key: {..}` or `keys: [{..}, ...]`.
template <class Parse>
void parse_one_or_many(const YAML::Node& node, const YamlReader& read, const std::string& key, Parse parse) {
  if (node[key]) parse(node[key]);
  if (node[key + "s"]) {
    read.require_sequence(node[key + "s"], key + "s");
    for (const auto& item : node[key + "s"]) parse(item);
  }
}

}  // namespace

std::vector<CheckSpec> parse_checks(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  read.require_sequence(node, "checks");
  std::vector<CheckSpec> checks;
  for (const auto& item : node) checks.push_back(parse_check(item, read, spec));
  return checks;
}

ReportSpec parse_report(const YAML::Node& node, const YamlReader& read, const ExperimentSpec& spec) {
  read.require_map(node, "report", {"table", "tables", "figure", "figures", "select"});
  ReportSpec report;
  if (node["select"]) {  // `select: { metric: M }`: rank the algorithms as tuning candidates
    read.require_map(node["select"], "report select", {"metric"});
    if (!node["select"]["metric"]) read.fail(node["select"], "select needs 'metric': the error to minimise");
    report.selection = SelectionSpec{one_of(node["select"]["metric"], read, "metric (of this experiment's metrics:)", spec.metrics)};
  }
  parse_one_or_many(node, read, "table", [&](const YAML::Node& n) { report.tables.push_back(parse_table(n, read, spec)); });
  parse_one_or_many(node, read, "figure", [&](const YAML::Node& n) { report.figures.push_back(parse_figure(n, read, spec)); });
  return report;
}

}  // namespace dpb::verify::detail
