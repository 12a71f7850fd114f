// Experiments from Python: run one (a YAML file or a dict), read a stored run, compare two runs.
#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/errors.hpp"
#include "verify/audit/audit_report.hpp"
#include "verify/checks/run_checks.hpp"
#include "verify/report/compare.hpp"
#include "verify/experiment/parse.hpp"
#include "verify/experiment/settings.hpp"
#include "verify/report/failures.hpp"
#include "verify/runner/run_and_report.hpp"
#include "verify/runner/stored_run.hpp"
#include "verify/runner/verdict_table.hpp"

namespace dpb::python {
namespace {

// A run's rows, settings and verdicts, whether just run or read from its store.
struct Run {
  verify::ResultSet results;
  verify::RunSettings settings;
  std::filesystem::path dir;
  std::vector<verify::Verdict> verdicts;
  nlohmann::json audits = nlohmann::json::array();
  std::vector<std::string> failures;  // one line per (cell, algorithm) with failed trials
  int exit_code = 0;
  nlohmann::json outcome = nullptr;   // tasks run and stored (a run made here; None when read)

  // One list per column: cell, algorithm, trial, error, seconds, then every cell parameter, metric and
  // diagnostic ("diagnostics.<name>") any row holds, NaN where a row has none.
  py::dict columns() const {
    std::set<std::string> params, metrics, diagnostics;
    for (const auto& row : results.rows) {
      for (const auto& [name, value] : row.cell_params) params.insert(name);
      for (const auto& [name, value] : row.metrics) metrics.insert(name);
      for (const auto& [name, value] : row.diagnostics) diagnostics.insert(name);
    }
    py::dict out;
    py::list cell, algorithm, trial, error, seconds;
    for (const auto& row : results.rows) {
      cell.append(row.cell);
      algorithm.append(row.algorithm);
      trial.append(row.trial);
      error.append(row.error);
      seconds.append(row.seconds);
    }
    out["cell"] = cell;
    out["algorithm"] = algorithm;
    out["trial"] = trial;
    const auto add = [&](const std::set<std::string>& names, const std::string& prefix, auto field) {
      for (const auto& name : names) {
        py::list values;
        for (const auto& row : results.rows) {
          const auto& map = row.*field;
          const auto it = map.find(name);
          values.append(it == map.end() ? std::nan("") : it->second);
        }
        out[py::str(prefix + name)] = values;
      }
    };
    add(params, "", &verify::TrialRow::cell_params);
    add(metrics, "", &verify::TrialRow::metrics);
    add(diagnostics, "diagnostics.", &verify::TrialRow::diagnostics);
    out["error"] = error;
    out["seconds"] = seconds;
    return out;
  }

  py::list verdict_list() const {
    py::list out;
    for (const auto& v : verdicts) out.append(to_python(verify::to_json(v)));
    return out;
  }

  // What `dpbounds run` prints after the trials: failures, the verdict table, the audits.
  std::string summary() const {
    std::ostringstream text;
    for (const auto& line : failures) text << line << '\n';
    verify::print_verdicts(verdicts, text);
    for (const auto& audit : audits) text << audit.value("line", std::string()) << (audit.contains("line") ? "\n" : "");
    return text.str();
  }
};

verify::StoredTrials parse_stored(const std::string& stored) {
  if (stored == "refuse") return verify::StoredTrials::refuse;
  if (stored == "resume") return verify::StoredTrials::resume;
  if (stored == "fresh") return verify::StoredTrials::fresh;
  throw InvalidArgument(fmt::format("stored='{}' is not one of refuse, resume, fresh", stored));
}

Run run_experiment(const verify::ExperimentSpec& spec, const std::string& out, int threads, const std::string& stored,
                   bool progress) {
  verify::RunOptions options;
  options.threads = threads;
  options.stored = parse_stored(stored);
  options.progress = progress ? stderr : nullptr;
  verify::ExperimentRun result;
  {
    const py::gil_scoped_release free;
    result = verify::run_and_report(spec, out, options);
  }
  if (result.outcome.interrupted) {  // Ctrl-C: the trials in flight were committed; resume with stored='resume'
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  Run run;
  run.results = std::move(result.results);
  run.settings = verify::settings_of(spec);
  run.dir = result.dir;
  run.verdicts = result.verdicts;
  for (const auto& audit : result.audits) {
    nlohmann::json j = verify::to_json(audit);
    j["line"] = verify::audit_line(audit);
    run.audits.push_back(std::move(j));
  }
  run.failures = verify::failure_report_lines(result);
  run.exit_code = verify::run_exit_code(result);
  const auto& o = result.outcome;
  run.outcome = {{"tasks", o.tasks}, {"executed", o.executed}, {"failed", o.failed}, {"skipped", o.skipped}};
  return run;
}

Run load(const std::string& dir) {
  const verify::LoadedRun loaded = verify::load_run(dir);
  Run run;
  run.results = loaded.results;
  run.settings = loaded.settings;
  run.dir = loaded.dir;
  {
    const py::gil_scoped_release free;
    run.verdicts = verify::run_checks(run.results, run.settings.checks, run.settings.seed);
  }
  if (std::ifstream audits(run.dir / "audits.json"); audits) run.audits = nlohmann::json::parse(audits, nullptr, false);
  if (!run.audits.is_array()) run.audits = nlohmann::json::array();
  for (const auto& group : verify::failure_groups(run.results)) run.failures.push_back(verify::describe(group));
  run.exit_code = verify::verdicts_exit_code(run.verdicts);
  return run;
}

verify::ExperimentSpec from_text(const std::string& text, const std::string& source,
                                 const verify::ExperimentOverrides& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", source, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  return verify::experiment_with_overrides(root, verify::YamlSource(source), overrides);
}

}  // namespace

void bind_experiment(py::module_& m) {
  py::class_<verify::ExperimentSpec>(m, "ExperimentSpec")
      .def_readonly("name", &verify::ExperimentSpec::name)
      .def_readonly("trials", &verify::ExperimentSpec::trials);
  m.def(
      "load_experiment",
      [](const std::string& path, std::vector<std::string> set, std::vector<std::string> only) {
        return verify::load_experiment(path, {std::move(set), std::move(only)});
      },
      py::arg("path"), py::arg("set"), py::arg("only"));
  m.def(
      "parse_experiment",
      [](const std::string& text, const std::string& source, std::vector<std::string> set,
         std::vector<std::string> only) { return from_text(text, source, {std::move(set), std::move(only)}); },
      py::arg("text"), py::arg("source"), py::arg("set"), py::arg("only"));

  py::class_<Run>(m, "Run")
      .def("columns", &Run::columns)
      .def_property_readonly("verdicts", &Run::verdict_list)
      .def_property_readonly("audits", [](const Run& r) { return to_python(r.audits); })
      .def_readonly("failures", &Run::failures)
      .def_readonly("exit_code", &Run::exit_code)
      .def_property_readonly("dir", [](const Run& r) { return r.dir.string(); })
      .def_property_readonly("outcome", [](const Run& r) { return to_python(r.outcome); })
      .def_property_readonly("name", [](const Run& r) { return r.results.experiment; })
      .def("summary", &Run::summary)
      .def(
          "report",
          [](Run& r, const std::string& out) {
            const py::gil_scoped_release free;
            r.verdicts = verify::check_and_report(r.results, r.settings, out);
          },
          py::arg("out"));
  m.def("run_experiment", &run_experiment, py::arg("spec"), py::arg("out"), py::arg("threads"), py::arg("stored"),
        py::arg("progress"));
  m.def("load_run", &load, py::arg("dir"));
  m.def(
      "compare",
      [](const std::string& a, const std::string& b, std::vector<std::string> metrics, double alpha,
         std::vector<std::string> maps) {
        const verify::CompareOptions options{std::move(metrics), alpha, std::move(maps)};
        verify::Comparison comparison;
        {
          const py::gil_scoped_release free;
          comparison = verify::compare_runs(a, b, options);
        }
        py::dict out = to_python(verify::to_json(comparison));
        out["text"] = verify::to_text(comparison);
        out["worse"] = comparison.worse();
        return out;
      },
      py::arg("a"), py::arg("b"), py::arg("metrics"), py::arg("alpha"), py::arg("maps"));
}

}  // namespace dpb::python
