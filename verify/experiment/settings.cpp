#include "verify/experiment/settings.hpp"

#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::verify {

RunSettings settings_of(const ExperimentSpec& spec) { return {spec.seed, spec.checks, spec.report}; }

nlohmann::json to_json(const RunSettings& s) {
  nlohmann::json checks = nlohmann::json::array(), tables = nlohmann::json::array(),
                 figures = nlohmann::json::array();
  for (const auto& c : s.checks) checks.push_back(to_json(c));
  for (const auto& t : s.report.tables)
    tables.push_back(
        {{"rows", t.rows}, {"columns", t.columns}, {"stat", t.stat}, {"metrics", t.metrics}, {"best", t.best}});
  for (const auto& f : s.report.figures)
    figures.push_back({{"x", f.x},
                       {"y", f.y},
                       {"log_x", f.log_x},
                       {"log_y", f.log_y},
                       {"theorem", f.theorem},
                       {"boxplot", f.boxplot}});
  nlohmann::json out = {{"seed", s.seed},     {"checks", checks},
                        {"tables", tables},   {"figures", figures},
                        {"algorithm_names", s.report.algorithm_names}};
  if (s.report.selection) out["select"] = {{"metric", s.report.selection->metric}};
  return out;
}

RunSettings settings_from_json(const nlohmann::json& j) {
  try {
    RunSettings s;
    s.seed = j.at("seed").get<std::uint64_t>();
    for (const auto& c : j.at("checks")) {
      CheckSpec check;
      c.at("kind").get_to(check.kind);
      c.at("theorem").get_to(check.theorem);
      c.at("algorithm").get_to(check.algorithm);
      c.at("metric").get_to(check.metric);
      c.at("vary").get_to(check.vary);
      c.at("against").get_to(check.against);
      c.at("tolerance").get_to(check.tolerance);
      c.at("optimal").get_to(check.optimal);
      if (c.contains("params")) c.at("params").get_to(check.params);  // absent in runs stored before params
      if (c.contains("exponent")) {  // absent in settings stored before the exponent check
        c.at("exponent").get_to(check.exponent);
        c.at("side").get_to(check.side);
      }
      // Absent in stores written before they existed:
      if (c.contains("where")) c.at("where").get_to(check.where);
      if (c.contains("override")) c.at("override").get_to(check.override_reason);
      if (c.contains("note")) c.at("note").get_to(check.note);
      s.checks.push_back(check);
    }
    for (const auto& t : j.at("tables")) {
      TableSpec table;
      t.at("rows").get_to(table.rows);
      t.at("columns").get_to(table.columns);
      t.at("stat").get_to(table.stat);
      t.at("metrics").get_to(table.metrics);
      if (t.contains("best")) t.at("best").get_to(table.best);
      s.report.tables.push_back(table);
    }
    for (const auto& f : j.at("figures")) {
      FigureSpec figure;
      f.at("x").get_to(figure.x);
      f.at("y").get_to(figure.y);
      f.at("log_x").get_to(figure.log_x);
      f.at("log_y").get_to(figure.log_y);
      f.at("theorem").get_to(figure.theorem);
      if (f.contains("boxplot")) f.at("boxplot").get_to(figure.boxplot);
      s.report.figures.push_back(figure);
    }
    if (j.contains("algorithm_names")) j.at("algorithm_names").get_to(s.report.algorithm_names);
    if (j.contains("select")) s.report.selection = SelectionSpec{j.at("select").at("metric").get<std::string>()};
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw InvalidArgument(fmt::format("stored run settings are malformed: {}", e.what()));
  }
}

}  // namespace dpb::verify
