#include "verify/experiment/parse.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/models/model.hpp"
#include "verify/experiment/grid.hpp"
#include "verify/experiment/overrides.hpp"
#include "verify/experiment/parse_sections.hpp"
#include "verify/experiment/selection.hpp"
#include "verify/experiment/suggest.hpp"
#include "verify/runner/metrics.hpp"

namespace dpb::verify {
namespace {

const std::vector<std::string> kTopKeys = {"name",    "source",     "seed",    "trials", "model",  "data",
                                           "grid",    "n",          "privacy", "algorithms",
                                           "metrics", "checks",     "report",  "audit",  "tuned_by", "stream_batch"};
// An audit-only experiment (no `algorithms`) runs no trials: its privacy and seed are the audits' defaults.
const std::vector<std::string> kAuditOnlyKeys = {"name", "source", "seed", "privacy", "audit"};
// Grid axes that are not model parameters (privacy axes spell out their names as in `privacy:`).
constexpr long long kMaxTrials = 1'000'000;
constexpr long long kMaxSeed = 9'007'199'254'740'992LL;  // 2^53: seeds survive a round trip through JSON

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> model_param_names(const core::ModelEntry& entry) {
  std::vector<std::string> names;
  for (const auto& p : entry.params) names.push_back(p.name);
  return names;
}

void parse_model(const YAML::Node& node, const YamlReader& read, ExperimentSpec& spec) {
  if (!node.IsMap() || !node["name"]) read.fail(node, "model must be a map with a name, e.g. { name: spiked_gaussian, d: 50 }");
  spec.model = read.text(node["name"], "model name");
  std::vector<std::string> ids;
  for (const auto& entry : core::model_catalog()) ids.push_back(entry.id);
  if (!contains(ids, spec.model))
    read.fail(node["name"], fmt::format("unknown model '{}'{}", spec.model, suggestion(spec.model, ids)));
  std::vector<std::string> allowed = model_param_names(core::find_model(spec.model));
  allowed.insert(allowed.begin(), "name");
  read.require_map(node, fmt::format("model {}", spec.model), allowed);
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    if (key != "name") spec.model_params.set(key, read.param_value(entry.second, "model parameter " + key));
  }
}

std::vector<double> axis_values(const YAML::Node& node, const YamlReader& read, const std::string& axis) {
  std::vector<double> values = read.numbers(node, "grid axis " + axis);
  for (double v : values) {
    // epsilon and delta are checked in every cell by the budget's one rule (alg::validate, below).
    if (axis == "n" && !(v >= 1 && v == std::floor(v)))
      read.fail(node, fmt::format("grid axis n has value {}; allowed: integers >= 1", v));
  }
  return values;
}

GridGroup parse_zip(const YAML::Node& node, const YamlReader& read, const std::vector<std::string>& axes) {
  read.require_map(node, "grid zip", axes);
  GridGroup group;
  for (const auto& entry : node) {
    group.axes.push_back(entry.first.Scalar());
    group.values.push_back(axis_values(entry.second, read, group.axes.back()));
    if (group.values.back().size() != group.values.front().size())
      read.fail(entry.second, fmt::format("zipped axes advance together: '{}' has {} values, '{}' has {}",
                                          group.axes.back(), group.values.back().size(), group.axes.front(),
                                          group.values.front().size()));
  }
  return group;
}

void parse_grid(const YAML::Node& node, const YamlReader& read, ExperimentSpec& spec) {
  std::vector<std::string> axes = kRunAxes;
  if (!spec.data)  // a dataset has no parameters to sweep
    for (const auto& name : model_param_names(core::find_model(spec.model)))
      if (!spec.model_params.has(name)) axes.push_back(name);
  std::vector<std::string> keys = axes;
  keys.push_back("zip");
  read.require_map(node, "grid (axes: n, epsilon, delta, or a model parameter not fixed in model:)", keys);
  std::vector<std::string> seen;
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    std::vector<GridGroup> groups;
    if (key == "zip") {
      if (entry.second.IsSequence())
        for (const auto& zip : entry.second) groups.push_back(parse_zip(zip, read, axes));
      else
        groups.push_back(parse_zip(entry.second, read, axes));
    } else {
      groups.push_back({{key}, {axis_values(entry.second, read, key)}});
    }
    for (const auto& group : groups) {
      for (const auto& axis : group.axes) {
        if (contains(seen, axis)) read.fail(entry.first, fmt::format("grid axis '{}' appears twice", axis));
        seen.push_back(axis);
      }
      spec.grid.push_back(group);
    }
  }
}

void parse_privacy(const YAML::Node& node, const YamlReader& read, ExperimentSpec& spec) {
  read.require_map(node, "privacy", {"epsilon", "delta", "neighbours"});
  if (node["epsilon"]) spec.privacy.epsilon = read.number(node["epsilon"], "privacy epsilon");
  if (node["delta"]) spec.privacy.delta = read.number(node["delta"], "privacy delta");
  if (node["neighbours"]) {
    const std::string n = read.text(node["neighbours"], "privacy neighbours");
    if (n != "replace" && n != "add_remove")
      read.fail(node["neighbours"], fmt::format("privacy neighbours must be replace or add_remove, got '{}'", n));
    spec.privacy.neighbours = n == "replace" ? alg::Neighbours::replace : alg::Neighbours::add_remove;
  }
  try {
    alg::validate(spec.privacy);
  } catch (const InvalidArgument& e) {
    read.fail(node, e.what());
  }
}

std::string format_value(const core::ParamValue& value) {
  if (const double* v = std::get_if<double>(&value)) return fmt::format("{}", *v);
  if (const auto* list = std::get_if<std::vector<double>>(&value)) return fmt::format("[{}]", fmt::join(*list, ";"));
  return std::get<std::string>(value);
}

std::string algorithm_label(const std::string& id, const core::ParamMap& given) {
  if (given.values().empty()) return id;
  std::vector<std::string> parts;
  for (const auto& [name, value] : given.values()) parts.push_back(name + "=" + format_value(value));
  return fmt::format("{}[{}]", id, fmt::join(parts, ","));
}

AlgorithmSpec parse_algorithm(const YAML::Node& item, const YamlReader& read) {
  const auto& registry = alg::algorithm_registry();
  // reset(), not operator=: assigning to a YAML::Node that refers to a node overwrites that node.
  YAML::Node id_node, params_node;
  id_node.reset(item);
  if (item.IsMap()) {
    if (item.size() != 1) read.fail(item, "an algorithm is written `- id` or `- id: { param: value, ... }`");
    id_node.reset(item.begin()->first);
    params_node.reset(item.begin()->second);
  }
  AlgorithmSpec spec;
  spec.id = read.text(id_node, "algorithm id");
  std::vector<std::string> ids;
  for (const auto& entry : registry.entries()) ids.push_back(entry.id);
  if (!contains(ids, spec.id))
    read.fail(id_node, fmt::format("unknown algorithm '{}'{}", spec.id, suggestion(spec.id, ids)));
  if (params_node && !params_node.IsNull()) {
    std::vector<std::string> names{"label"};
    for (const auto& p : registry.find(spec.id).params) names.push_back(p.name);
    read.require_map(params_node, "the parameters of " + spec.id, names);
    for (const auto& entry : params_node) {
      const std::string name = entry.first.Scalar();
      if (name == "label") {  // the name tables and legends show, not a parameter of the algorithm
        spec.name = read.text(entry.second, "label");
        continue;
      }
      const core::ParamValue value = read.param_value(entry.second, name);
      try {
        registry.resolve(spec.id, core::ParamMap{{name, value}});  // one at a time: blame the right node
      } catch (const InvalidArgument& e) {
        read.fail(entry.second, e.what());
      }
      spec.given.set(name, value);
    }
  }
  try {
    spec.resolved = registry.resolve(spec.id, spec.given);
  } catch (const InvalidArgument& e) {
    read.fail(item, e.what());
  }
  spec.label = algorithm_label(spec.id, spec.given);
  return spec;
}

void parse_algorithms(const YAML::Node& node, const YamlReader& read, ExperimentSpec& spec) {
  read.require_sequence(node, "algorithms");
  if (node.size() == 0) read.fail(node, "algorithms must list at least one algorithm");
  for (const auto& item : node) {
    spec.algorithms.push_back(parse_algorithm(item, read));
    for (std::size_t i = 0; i + 1 < spec.algorithms.size(); ++i)
      if (spec.algorithms[i].label == spec.algorithms.back().label)
        read.fail(item, fmt::format("algorithm {} is listed twice", spec.algorithms.back().label));
  }
}

void parse_metrics(const YAML::Node& node, const YamlReader& read, ExperimentSpec& spec) {
  read.require_sequence(node, "metrics");
  if (node.size() == 0) read.fail(node, "metrics must list at least one metric");
  for (const auto& item : node) {
    const std::string name = read.text(item, "metric");
    try {
      require_metric(name);
    } catch (const InvalidArgument& e) {
      read.fail(item, e.what());
    }
    spec.metrics.push_back(name);
  }
}

// Every cell must give a model the catalogue accepts and a sample size: checked here, before any
// trial runs, so that a bad grid value fails at load time.
void check_cells(const YAML::Node& root, const YamlReader& read, const ExperimentSpec& spec) {
  for (const Cell& cell : expand_grid(spec.grid)) {
    if (!cell.count("n") && spec.n == 0) read.fail(root, "no sample size: give n, or a grid axis n");
    const CellSettings settings = cell_settings(spec, cell);
    const core::ParamMap& params = settings.model_params;
    core::Rng rng(spec.seed, 0);
    try {
      // Before the model, which itself holds d x d matrices. A dataset's d is known once it is read.
      // Streamed data holds one batch of samples at a time.
      const double n = spec.stream_batch > 0 ? double(std::min(settings.n, spec.stream_batch)) : double(settings.n);
      const double d = params.get_real("d", params.get_real("p", 0, spec.model), spec.model);
      core::require_memory(core::trial_memory_bytes(n, d), fmt::format("a trial at n = {:g}, d = {:g}", n, d),
                           "make the grid's n or the model's d smaller");
      if (!spec.data) core::make_model(spec.model, params, rng);  // a dataset is read when the run starts
      alg::validate(settings.privacy);
    } catch (const InvalidArgument& e) {
      read.fail(root["grid"] ? root["grid"] : root["model"], e.what());
    }
  }
}

// `stream_batch: B` draws each trial's samples B at a time (core/streamed_samples.hpp): only algorithms that read
// the sample matrices A_i, and only from a model.
void parse_stream_batch(const YAML::Node& root, const YamlReader& read, ExperimentSpec& spec) {
  const YAML::Node node = root["stream_batch"];
  spec.stream_batch = static_cast<long>(read.integer(node, "stream_batch", 1, kMaxSeed));
  if (spec.data) read.fail(node, "stream_batch draws samples from a model; a dataset is read whole");
  for (std::size_t i = 0; i < spec.algorithms.size(); ++i) {
    const auto& entry = alg::algorithm_registry().find(spec.algorithms[i].id);
    if (entry.needs != alg::DataNeed::sample_matrices)
      read.fail(root["algorithms"][i],
                fmt::format("stream_batch streams the sample matrices A_i, but {} reads the whole data set ({}): "
                            "run it in an experiment without stream_batch",
                            entry.id, alg::to_string(entry.needs)));
  }
}

// `audit:` is one mapping or a list of them; the auditor's parser checks each (file:line:column).
std::vector<AuditSpec> parse_audits(const YAML::Node& node, const YamlSource& source, const ExperimentSpec& spec) {
  AuditSpec defaults;
  defaults.privacy = spec.privacy;
  defaults.seed = spec.seed;
  std::vector<AuditSpec> audits;
  if (node.IsSequence())
    for (const auto& item : node) audits.push_back(parse_audit_spec(item, source.file(), defaults));
  else
    audits.push_back(parse_audit_spec(node, source.file(), defaults));
  return audits;
}

// [A-Za-z0-9][A-Za-z0-9._-]*: safe as a directory name anywhere (no separator, no leading dot or dash).
bool is_directory_name(const std::string& name) {
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  return !name.empty() && alnum(name.front()) &&
         std::all_of(name.begin(), name.end(), [&](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

// name, source and seed: what every experiment has.
void parse_header(const YAML::Node& root, const YamlReader& read, ExperimentSpec& spec) {
  if (!root["name"]) read.fail(root, "an experiment needs 'name'");
  spec.name = read.text(root["name"], "name");
  if (!is_directory_name(spec.name))
    read.fail(root["name"], "name is also a directory name: letters, digits, '.', '_' and '-' only");
  if (root["source"]) spec.source = read.text(root["source"], "source");
  if (root["seed"]) spec.seed = static_cast<std::uint64_t>(read.integer(root["seed"], "seed", 0, kMaxSeed));
}

ExperimentSpec parse_audit_only(const YAML::Node& root, const YamlSource& source, const YamlReader& read) {
  read.require_map(root, "an audit-only experiment (no algorithms)", kAuditOnlyKeys);
  ExperimentSpec spec;
  parse_header(root, read, spec);
  spec.privacy = AuditSpec{}.privacy;  // without `privacy:`, the auditor's own default
  if (root["privacy"]) parse_privacy(root["privacy"], read, spec);
  spec.audits = parse_audits(root["audit"], source, spec);
  return spec;
}

}  // namespace

ExperimentSpec parse_experiment(const YAML::Node& root, const YamlSource& source) {
  const YamlReader read(source);
  if (root.IsMap() && root["audit"] && !root["algorithms"]) return parse_audit_only(root, source, read);
  read.require_map(root, "an experiment", kTopKeys);
  for (const char* required : {"name", "algorithms", "metrics"})
    if (!root[required]) read.fail(root, fmt::format("an experiment needs '{}'", required));
  if (!root["model"] == !root["data"]) read.fail(root, "an experiment needs either 'model' or 'data' (a dataset), not both");
  ExperimentSpec spec;
  parse_header(root, read, spec);
  if (root["trials"]) spec.trials = static_cast<int>(read.integer(root["trials"], "trials", 1, kMaxTrials));
  if (root["model"]) parse_model(root["model"], read, spec);
  else spec.data = detail::parse_data(root["data"], read);
  if (root["n"]) spec.n = static_cast<long>(read.integer(root["n"], "n", 1, kMaxSeed));
  if (root["grid"]) parse_grid(root["grid"], read, spec);
  if (root["privacy"]) parse_privacy(root["privacy"], read, spec);
  parse_algorithms(root["algorithms"], read, spec);
  parse_metrics(root["metrics"], read, spec);
  if (root["stream_batch"]) parse_stream_batch(root, read, spec);
  check_cells(root, read, spec);
  if (root["checks"]) spec.checks = detail::parse_checks(root["checks"], read, spec);
  if (root["report"]) spec.report = detail::parse_report(root["report"], read, spec);
  for (const auto& algorithm : spec.algorithms)
    if (!algorithm.name.empty()) spec.report.algorithm_names[algorithm.label] = algorithm.name;
  if (root["audit"]) spec.audits = parse_audits(root["audit"], source, spec);
  if (root["tuned_by"]) spec.tuned_by = read.text(root["tuned_by"], "tuned_by (the name of a tuning experiment)");
  return spec;
}

namespace {

// yaml-cpp keeps both entries of a repeated key and operator[] returns the first: a duplicate would
// silently shadow the value the user meant. Fails at the second occurrence, naming the first.
void reject_duplicate_keys(const YAML::Node& node, const std::filesystem::path& file) {
  if (node.IsSequence())
    for (const auto& item : node) reject_duplicate_keys(item, file);
  if (!node.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (const auto& entry : node) {
    const YAML::Mark mark = entry.first.Mark();
    if (entry.first.IsScalar()) {
      if (const auto [first, fresh] = seen.emplace(entry.first.Scalar(), mark); !fresh)
        throw ConfigError(fmt::format("{}:{}:{}: duplicate key '{}' (first at line {}): each key may appear once",
                                      file.string(), mark.line + 1, mark.column + 1, entry.first.Scalar(),
                                      first->second.line + 1));
    }
    reject_duplicate_keys(entry.second, file);
  }
}

}  // namespace

YAML::Node load_yaml_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw ConfigError(fmt::format("{}: cannot read the file", file.string()));
  std::stringstream text;
  text << in.rdbuf();
  try {
    YAML::Node root = YAML::Load(text.str());
    reject_duplicate_keys(root, file);
    return root;
  } catch (const YAML::ParserException& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", file.string(), e.mark.line + 1, e.mark.column + 1, e.msg));
  }
}

ExperimentSpec experiment_with_overrides(YAML::Node root, YamlSource source, const ExperimentOverrides& overrides) {
  for (const auto& assignment : overrides.set) apply_set(root, assignment, source);
  ExperimentSpec spec = parse_experiment(root, source);
  select_algorithms(spec, overrides.only);
  return spec;
}

ExperimentSpec load_experiment(const std::filesystem::path& file, const ExperimentOverrides& overrides) {
  return experiment_with_overrides(load_yaml_file(file), YamlSource(file.string()), overrides);
}

}  // namespace dpb::verify
