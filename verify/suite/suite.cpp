#include "verify/suite/suite.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "algorithms/registry.hpp"
#include "bounds/theorem.hpp"
#include "core/errors.hpp"
#include "lowerbounds/catalog.hpp"
#include "verify/experiment/overrides.hpp"
#include "verify/experiment/selection.hpp"
#include "verify/experiment/tuned_by.hpp"
#include "verify/audit/audit_report.hpp"
#include "verify/audit/audit_tightness.hpp"
#include "verify/distributed/ranks.hpp"
#include "verify/experiment/yaml_read.hpp"
#include "verify/report/atomic_file.hpp"
#include "verify/report/selection.hpp"
#include "verify/runner/verdict_table.hpp"

namespace dpb::verify {
namespace {

// --only applies to audits as to algorithms: an audit is kept when a pattern matches its algorithm
// with its parameters resolved (defaults included). No patterns: no change.
void keep_selected_audits(ExperimentSpec& spec, const std::vector<AlgorithmPattern>& patterns, std::vector<bool>& used) {
  if (patterns.empty()) return;
  std::erase_if(spec.audits, [&](const AuditSpec& audit) {
    AlgorithmSpec as_algorithm;
    as_algorithm.id = audit.algorithm;
    as_algorithm.resolved = alg::algorithm_registry().resolve(audit.algorithm, audit.params);
    bool kept = false;
    for (std::size_t i = 0; i < patterns.size(); ++i)
      if (matches(patterns[i], as_algorithm)) kept = used[i] = true;
    return !kept;
  });
}

// `experiments:` entries: a path relative to the suite file, `{ file: path, set: [path=value, ...] }`
// (the file with these --set edits first), or an inline experiment.
ExperimentSpec suite_experiment(const YAML::Node& item, const YamlReader& read, const std::filesystem::path& file,
                                const ExperimentOverrides& overrides, const std::vector<AlgorithmPattern>& patterns,
                                std::vector<bool>& used) {
  ExperimentOverrides sets{{}, {}};
  YAML::Node path_node;
  const bool from_file = item.IsScalar() || item["file"];
  if (item.IsScalar()) {
    path_node.reset(item);
  } else if (from_file) {
    read.require_map(item, "a suite entry with a file", {"file", "set"});
    path_node.reset(item["file"]);
    if (item["set"]) sets.set = read.texts(item["set"], "set");
  }
  YAML::Node root;
  YamlSource source = read.source();
  if (from_file) {
    const auto path = file.parent_path() / read.text(path_node, "experiment path");
    if (!std::filesystem::is_regular_file(path)) read.fail(path_node, fmt::format("no experiment file {}", path.string()));
    root = load_yaml_file(path);
    source = YamlSource(path.string());
  } else {
    root = YAML::Clone(item);
  }
  // Command-line --set edits trials and grids; an audit-only experiment has neither, so it takes only
  // its entry's own `set:` (`verify --set trials=2` must not break the suite's audits).
  const bool audit_only = root.IsMap() && root["audit"] && !root["algorithms"];
  if (!audit_only) sets.set.insert(sets.set.end(), overrides.set.begin(), overrides.set.end());  // the command line wins
  ExperimentSpec spec = experiment_with_overrides(root, source, sets);
  const std::vector<bool> selected = keep_selected(spec, patterns);
  for (std::size_t i = 0; i < used.size(); ++i) used[i] = used[i] || selected[i];
  keep_selected_audits(spec, patterns, used);
  return spec;
}

std::string json_file_text(const nlohmann::json& j) { return j.dump(2) + "\n"; }

void write_suite_summary(const SuiteSpec& suite, const SuiteRun& run, const Coverage& coverage,
                         const std::filesystem::path& out) {
  const auto dir = out / ("suite-" + suite.name);
  std::string md = fmt::format("# Suite {}\n\n{}\n\n## Verdicts\n\n| status | experiment | check | summary |\n|---|---|---|---|\n",
                               suite.name, suite.description);
  nlohmann::json verdicts = nlohmann::json::array();
  for (const auto& r : run.runs)
    for (const auto& v : r.verdicts) {
      md += fmt::format("| {} | [{}](../{}/summary.md) | {} | {} |\n", to_string(v.status), r.results.experiment,
                        r.dir.filename().string(), describe_check(v.check), v.summary);
      nlohmann::json j = to_json(v);
      j["experiment"] = r.results.experiment;
      verdicts.push_back(j);
    }
  std::string failures;
  for (const auto& r : run.runs)
    if (!r.failures.empty())
      failures += fmt::format("\n### [{}](../{}/summary.md)\n\n{}", r.results.experiment, r.dir.filename().string(),
                              failures_markdown(r.failures));
  if (!failures.empty()) md += "\n## Failed trials\n" + failures;
  if (!audit_summary(run).empty()) {
    md += fmt::format("\n## Privacy audits\n\n{}\n\n| verdict | expected | experiment | algorithm | eps_lb | audited eps | eps_lb / eps | bound | ledger |\n"
                      "|---|---|---|---|---|---|---|---|---|\n", audit_summary(run));
    for (const auto& r : run.runs)
      for (const auto& a : r.audits)
        md += fmt::format("| {} | {} | {} | {} | {:.3g} | {:g} | {:.2f} | {} | {} |\n", to_string(a.verdict),
                          expectation_note(a), r.results.experiment, a.spec.algorithm, a.epsilon_lower(),
                          a.audited_epsilon, a.tightness(), a.bound(), a.gaussian_ledger ? "Gaussian" : "other");
  }
  md += "\n## Coverage\n\nChecked (algorithm, theorem) pairs:\n\n";
  for (const auto& [a, t] : coverage.covered) md += fmt::format("- {} against {}\n", a, t);
  md += "\nUpper bounds not yet checked for an algorithm they name:\n\n";
  for (const auto& [a, t] : coverage.uncovered) md += fmt::format("- {} against {}\n", a, t);
  md += "\nLower bounds no check uses yet:\n\n";
  for (const auto& t : coverage.unchecked_lower_bounds) md += fmt::format("- {}\n", t);
  write_file_atomically(dir / "summary.md", md);
  write_file_atomically(dir / "verdicts.json", json_file_text(verdicts));
}

}  // namespace

SuiteVerdicts collect_verdicts(const SuiteRun& run) {
  SuiteVerdicts all;
  for (const auto& r : run.runs) {
    all.verdicts.insert(all.verdicts.end(), r.verdicts.begin(), r.verdicts.end());
    all.exit_code = std::max(all.exit_code, run_exit_code(r));
  }
  return all;
}

std::string audit_summary(const SuiteRun& run) {
  std::array<std::size_t, 3> by_outcome{};  // indexed by AuditOutcome
  std::size_t audits = 0, flagged_as_expected = 0;
  std::vector<const AuditResult*> all;
  for (const auto& r : run.runs)
    for (const auto& a : r.audits) {
      ++audits;
      all.push_back(&a);
      const AuditOutcome outcome = audit_outcome(a);
      ++by_outcome[static_cast<std::size_t>(outcome)];
      if (outcome == AuditOutcome::as_expected && a.verdict == AuditVerdict::violation) ++flagged_as_expected;
    }
  if (audits == 0) return "";
  const std::size_t expected = by_outcome[static_cast<std::size_t>(AuditOutcome::as_expected)];
  std::string line = fmt::format(
      "{} audits: {} as expected ({} PASS, {} VIOLATION expected), {} UNEXPECTED, {} not audited (no claim)", audits,
      expected, expected - flagged_as_expected, flagged_as_expected,
      by_outcome[static_cast<std::size_t>(AuditOutcome::unexpected)],
      by_outcome[static_cast<std::size_t>(AuditOutcome::not_audited)]);
  if (const std::string tightness = describe(summarize_tightness(all)); !tightness.empty()) line += "; " + tightness;
  return line;
}

std::filesystem::path suite_file(const std::string& suite, const ConfigLocations& where) {
  if (suite.find('/') != std::string::npos || suite.ends_with(".yaml")) return suite;
  const auto dir = find_config_subdir("suites", where);
  const auto file = dir / (suite + ".yaml");
  if (std::filesystem::is_regular_file(file)) return file;
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".yaml") names.insert(entry.path().stem().string());
  throw InvalidArgument(fmt::format("no suite '{}' in {} (suites there: {}; or give a path to a suite YAML)", suite,
                                    dir.string(), names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
}

SuiteSpec load_suite(const std::filesystem::path& file, const ExperimentOverrides& overrides) {
  if (!std::filesystem::is_regular_file(file))
    throw InvalidArgument(fmt::format("no suite file {}", file.string()));
  const YAML::Node root = load_yaml_file(file);
  const YamlSource source(file.string());
  const YamlReader read(source);
  read.require_map(root, "a suite", {"name", "description", "experiments"});
  if (!root["name"] || !root["experiments"]) read.fail(root, "a suite needs a name and experiments");
  SuiteSpec suite;
  suite.name = read.text(root["name"], "name");
  if (root["description"]) suite.description = read.text(root["description"], "description");
  read.require_sequence(root["experiments"], "experiments");
  std::vector<AlgorithmPattern> patterns;
  for (const auto& text : overrides.only) patterns.push_back(parse_pattern(text));
  std::vector<bool> used(patterns.size(), false);
  for (const auto& item : root["experiments"]) {
    ExperimentSpec spec = suite_experiment(item, read, file, overrides, patterns, used);
    for (const auto& other : suite.experiments)
      if (other.name == spec.name) read.fail(item, fmt::format("two experiments of the suite are named {}", spec.name));
    if (!spec.algorithms.empty() || !spec.audits.empty()) suite.experiments.push_back(std::move(spec));
  }
  for (std::size_t i = 0; i < used.size(); ++i)
    if (!used[i]) throw InvalidArgument(fmt::format("--only '{}' selects no algorithm of suite {}", overrides.only[i], suite.name));
  check_tuning_order(suite.experiments);
  return suite;
}

Coverage suite_coverage(const SuiteSpec& suite) {
  std::set<std::pair<std::string, std::string>> checked;  // (algorithm id, theorem)
  std::set<std::string> theorems_used;
  for (const auto& spec : suite.experiments)
    for (const auto& check : spec.checks) {
      if (check.theorem.empty()) continue;  // dominates and exponent checks compare algorithms, no theorem
      theorems_used.insert(check.theorem);
      if (check.kind == "consistency") theorems_used.insert(check.against);
      for (const auto& a : spec.algorithms)
        if (a.label == check.algorithm) checked.emplace(a.id, check.theorem);
    }
  Coverage coverage;
  coverage.covered.assign(checked.begin(), checked.end());
  for (const auto& theorem : bounds::upper_bound_theorems())
    for (const auto& algorithm : theorem.applies)
      if (!checked.count({algorithm, theorem.id})) coverage.uncovered.emplace_back(algorithm, theorem.id);
  for (const auto& theorem : lower::lower_bound_theorems())
    if (!theorems_used.count(theorem.id)) coverage.unchecked_lower_bounds.push_back(theorem.id);
  return coverage;
}

SuiteRun run_suite(const SuiteSpec& suite, const std::filesystem::path& out, const RunOptions& options,
                   std::ostream& log) {
  check_tuning_order(suite.experiments);
  SuiteRun run;
  std::map<std::string, AlgorithmSpec> selected;  // tuning experiment -> the candidate it ranks first
  for (std::size_t i = 0; i < suite.experiments.size(); ++i) {
    ExperimentSpec spec = suite.experiments[i];
    if (!spec.tuned_by.empty()) {
      if (const auto it = selected.find(spec.tuned_by); it != selected.end()) {
        use_selected_candidate(spec, it->second);
        fmt::print(log, "\n{} runs {}, the candidate {} selects\n", spec.name, it->second.label, spec.tuned_by);
      } else {
        fmt::print(log, "\n{}: {} selected no candidate (none has a finite value); its algorithms run as listed\n",
                   spec.name, spec.tuned_by);
      }
    }
    if (spec.algorithms.empty())
      fmt::print(log, "\n[{}/{}] {} ({} audits)\n", i + 1, suite.experiments.size(), spec.name, spec.audits.size());
    else
      fmt::print(log, "\n[{}/{}] {} ({} algorithms, {} trials per cell)\n", i + 1, suite.experiments.size(),
                 spec.name, spec.algorithms.size(), spec.trials);
    log.flush();
    run.runs.push_back(run_and_report(spec, out, options));
    if (run.runs.back().outcome.interrupted) {
      run.interrupted = true;
      return run;
    }
    if (spec.report.selection) {
      // Rank 0 holds the rows; every rank must run the same algorithms next, so the choice is broadcast.
      std::string label;
      if (ranks::is_root())
        if (const auto ranking = rank_candidates(run.runs.back().results, *spec.report.selection); !ranking.empty())
          label = ranking.front().algorithm;
      ranks::broadcast(label);
      for (const auto& candidate : spec.algorithms)
        if (candidate.label == label) selected[spec.name] = candidate;
    }
    for (const auto& line : failure_report_lines(run.runs.back())) fmt::print(log, "{}\n", line);
    if (!spec.algorithms.empty()) print_verdicts(run.runs.back().verdicts, log);
    for (const auto& audit : run.runs.back().audits) fmt::print(log, "{}\n", audit_line(audit));
  }
  if (ranks::is_root()) write_suite_summary(suite, run, suite_coverage(suite), out);
  if (const auto line = audit_summary(run); !line.empty()) fmt::print(log, "\n{}\n", line);
  return run;
}

}  // namespace dpb::verify
