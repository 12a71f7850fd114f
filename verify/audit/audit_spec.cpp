#include "verify/audit/audit_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/models/model.hpp"
#include "verify/audit/estimators.hpp"
#include "verify/audit/neighbours.hpp"
#include "verify/audit/scores.hpp"

namespace dpb::verify {
namespace {

constexpr std::array<std::pair<NeighbourKind, const char*>, 10> kNeighbourNames{{
    {NeighbourKind::canary, "canary"},
    {NeighbourKind::fresh, "fresh"},
    {NeighbourKind::huge_norm, "huge_norm"},
    {NeighbourKind::sign_flip, "sign_flip"},
    {NeighbourKind::axis_flip, "axis_flip"},
    {NeighbourKind::corner, "corner"},
    {NeighbourKind::orthogonal_axes, "orthogonal_axes"},
    {NeighbourKind::log_ladder, "log_ladder"},
    {NeighbourKind::opposed_at_start, "opposed_at_start"},
    {NeighbourKind::search, "search"},
}};

constexpr std::array<std::pair<AuditExpectation, const char*>, 3> kExpectationNames{{
    {AuditExpectation::pass, "pass"},
    {AuditExpectation::violation, "violation"},
    {AuditExpectation::ledger, "ledger"},
}};

constexpr std::array<const char*, 21> kKeys{
    "algorithm",     "params",    "model",      "model_params", "epsilon", "delta", "n",
    "d",             "k",         "trials",     "seconds",      "max_trials", "neighbours", "search_trials",
    "per_entry",     "score",     "confidence", "seed",         "canary_scale", "index", "expect"};

// "file:line:column: message" at `node` (yaml-cpp's Mark counts from 0; editors count from 1).
ConfigError error_at(const YAML::Node& node, const std::string& file, const std::string& message) {
  const YAML::Mark mark = node.Mark();
  return ConfigError(fmt::format("{}:{}:{}: {}", file, mark.line + 1, mark.column + 1, message));
}

template <class T>
T scalar_as(const YAML::Node& node, const std::string& file, const std::string& key, const char* expected) {
  if (!node.IsScalar()) throw error_at(node, file, fmt::format("audit: '{}' must be {}", key, expected));
  try {
    return node.as<T>();
  } catch (const YAML::Exception&) {
    throw error_at(node, file, fmt::format("audit: '{}' must be {}, got '{}'", key, expected, node.Scalar()));
  }
}

double number_at(const YAML::Node& node, const std::string& file, const std::string& key) {
  const auto text = scalar_as<std::string>(node, file, key, "a number");
  try {
    return core::parse_number(text, "audit: '" + key + "'");
  } catch (const InvalidArgument& e) {
    throw error_at(node, file, e.what());
  }
}

long integer_at(const YAML::Node& node, const std::string& file, const std::string& key) {
  const double v = number_at(node, file, key);
  if (v != std::floor(v) || std::abs(v) > 9.0e15)
    throw error_at(node, file, fmt::format("audit: '{}' must be an integer, got {}", key, v));
  return static_cast<long>(v);
}

// A parameter value as ParamMap holds it: a number, a name, or a list of numbers.
core::ParamValue param_value_at(const YAML::Node& node, const std::string& file, const std::string& key) {
  if (node.IsSequence()) {
    std::vector<double> values;
    for (const auto& item : node) values.push_back(number_at(item, file, key));
    return values;
  }
  const auto text = scalar_as<std::string>(node, file, key, "a number, a name or a list of numbers");
  try {
    return core::parse_number(text, key);
  } catch (const InvalidArgument&) {
    return text;
  }
}

core::ParamMap params_at(const YAML::Node& node, const std::string& file, const std::string& key) {
  if (!node.IsMap())
    throw error_at(node, file, fmt::format("audit: '{}' must be a mapping name: value", key));
  core::ParamMap params;
  for (const auto& item : node) {
    const auto name = item.first.as<std::string>();
    params.set(name, param_value_at(item.second, file, key + "." + name));
  }
  return params;
}

void read_key(AuditSpec& spec, const std::string& key, const YAML::Node& value, const std::string& file) {
  if (key == "algorithm")
    spec.algorithm = scalar_as<std::string>(value, file, key, "a registry id");
  else if (key == "params")
    spec.params = params_at(value, file, key);
  else if (key == "model")
    spec.model = scalar_as<std::string>(value, file, key, "a model id");
  else if (key == "model_params")
    spec.model_params = params_at(value, file, key);
  else if (key == "epsilon")
    spec.privacy.epsilon = number_at(value, file, key);
  else if (key == "delta")
    spec.privacy.delta = number_at(value, file, key);
  else if (key == "n")
    spec.n = integer_at(value, file, key);
  else if (key == "d")
    spec.d = static_cast<int>(integer_at(value, file, key));
  else if (key == "k")
    spec.k = static_cast<int>(integer_at(value, file, key));
  else if (key == "trials")
    spec.trials = integer_at(value, file, key);
  else if (key == "seconds")
    spec.seconds = number_at(value, file, key);
  else if (key == "max_trials")
    spec.max_trials = integer_at(value, file, key);
  else if (key == "search_trials")
    spec.search_trials = integer_at(value, file, key);
  else if (key == "per_entry")
    spec.per_entry = scalar_as<bool>(value, file, key, "true or false");
  else if (key == "score")
    spec.score = scalar_as<std::string>(value, file, key, "a score name");
  else if (key == "confidence")
    spec.confidence = number_at(value, file, key);
  else if (key == "canary_scale")
    spec.canary_scale = number_at(value, file, key);
  else if (key == "index")
    spec.index = integer_at(value, file, key);
  else if (key == "seed") {
    const long seed = integer_at(value, file, key);
    if (seed < 0) throw error_at(value, file, fmt::format("audit: 'seed' must be >= 0, got {}", seed));
    spec.seed = static_cast<std::uint64_t>(seed);
  } else if (key == "neighbours") {
    try {
      spec.neighbours = parse_neighbour_kind(scalar_as<std::string>(value, file, key, "a neighbour kind"));
    } catch (const InvalidArgument& e) {
      throw error_at(value, file, e.what());
    }
  } else if (key == "expect") {
    try {
      spec.expect = parse_audit_expectation(scalar_as<std::string>(value, file, key, "pass or violation"));
    } catch (const InvalidArgument& e) {
      throw error_at(value, file, e.what());
    }
  }
}

bool known_key(const std::string& key) {
  for (const char* k : kKeys)
    if (key == k) return true;
  return false;
}

}  // namespace

core::Rng audit_stream(const AuditSpec& spec, std::uint64_t run, const char* role) {
  return core::Rng(spec.seed, core::stream_id("audit", 0, "", run, role));
}

void validate(const AuditSpec& s) {
  if (s.algorithm.empty()) throw InvalidArgument("audit: name the algorithm to audit (a registry id)");
  core::find_model(s.model);
  alg::validate(s.privacy);
  if (s.n < 2) throw InvalidArgument(fmt::format("audit: n must be >= 2, got {}", s.n));
  if (s.d < 1) throw InvalidArgument(fmt::format("audit: d must be >= 1, got {}", s.d));
  if (s.k && (*s.k < 1 || *s.k > s.d))
    throw InvalidArgument(fmt::format("audit: k = {} must lie in 1..d = {}", *s.k, s.d));
  if (s.trials < kMinScoresPerDataset)
    throw InvalidArgument(
        fmt::format("audit: trials must be >= {} (half select the test, half evaluate it), got {}",
                    kMinScoresPerDataset, s.trials));
  // At most 1e7: a pilot's runs are numbered below 2^32 within its stream block (neighbour_search.cpp).
  constexpr long kMaxSearchTrials = 10'000'000;
  if (s.search_trials < kMinScoresPerDataset || s.search_trials > kMaxSearchTrials)
    throw InvalidArgument(fmt::format(
        "audit: search_trials must lie in {}..{} (each pilot selects a test on half its runs), got {}",
        kMinScoresPerDataset, kMaxSearchTrials, s.search_trials));
  if (!(std::isfinite(s.seconds) && s.seconds >= 0))
    throw InvalidArgument(fmt::format("audit: seconds must be a finite number >= 0 (0: exactly `trials` runs), "
                                      "got {}",
                                      s.seconds));
  if (s.max_trials < s.trials)
    throw InvalidArgument(
        fmt::format("audit: max_trials = {} must be >= trials = {}", s.max_trials, s.trials));
  if (!(s.confidence > 0 && s.confidence < 1))
    throw InvalidArgument(fmt::format("audit: confidence must lie in (0, 1), got {}", s.confidence));
  if (!(std::isfinite(s.canary_scale) && s.canary_scale > 0))
    throw InvalidArgument(
        fmt::format("audit: canary_scale must be a finite number > 0, got {}", s.canary_scale));
  if (s.index < 0 || s.index >= s.n)
    throw InvalidArgument(fmt::format("audit: index = {} must lie in 0..n-1 = {}", s.index, s.n - 1));
  if (s.neighbours == NeighbourKind::log_ladder) check_ladder(s.n, s.index);
  if (s.neighbours == NeighbourKind::opposed_at_start && s.k && *s.k >= s.d)
    throw InvalidArgument(fmt::format("audit: opposed_at_start needs k < d (the records differ along an axis "
                                      "outside the start's k columns), got k = {}, d = {}",
                                      *s.k, s.d));
  if (!s.score.empty()) find_score(s.score);
  // Each run keeps one score per side, gathered through a per-run vector: about 64 bytes at the peak.
  constexpr double kBytesPerRun = 64;
  const double runs = double(s.seconds > 0 ? s.max_trials : s.trials);
  core::require_memory(kBytesPerRun * runs + 2 * core::trial_memory_bytes(double(s.n), double(s.d)),
                       fmt::format("an audit of {} at n = {}, d = {} with up to {:g} runs per side", s.algorithm, s.n,
                                   s.d, runs),
                       "lower trials (and max_trials), n or d");
}

AuditSpec parse_audit_spec(const YAML::Node& node, const std::string& file, AuditSpec defaults) {
  if (!node.IsMap()) throw error_at(node, file, "audit: the section must be a mapping of key: value");
  AuditSpec spec = std::move(defaults);
  for (const auto& item : node) {
    const auto key = item.first.as<std::string>();
    if (!known_key(key))
      throw error_at(item.first, file,
                     fmt::format("audit: unknown key '{}' (allowed: {})", key, fmt::join(kKeys, ", ")));
    read_key(spec, key, item.second, file);
  }
  try {
    validate(spec);
  } catch (const InvalidArgument& e) {
    throw error_at(node, file, e.what());
  }
  return spec;
}

NeighbourKind parse_neighbour_kind(const std::string& text) {
  std::string known;
  for (const auto& [kind, name] : kNeighbourNames)
    if (text == name) return kind;
  throw InvalidArgument(
      fmt::format("unknown neighbour construction '{}' (choose: {})", text, neighbour_kind_names(", ")));
}

std::string neighbour_kind_names(const std::string& separator) {
  std::string names;
  for (const auto& [kind, name] : kNeighbourNames) names += (names.empty() ? "" : separator) + std::string(name);
  return names;
}

AuditExpectation parse_audit_expectation(const std::string& text) {
  for (const auto& [expectation, name] : kExpectationNames)
    if (text == name) return expectation;
  throw InvalidArgument(fmt::format("audit: expect must be pass, violation or ledger, got '{}'", text));
}

std::string to_string(AuditExpectation expectation) {
  switch (expectation) {
    case AuditExpectation::pass: return "PASS";
    case AuditExpectation::violation: return "VIOLATION";
    case AuditExpectation::ledger: return "LEDGER";
  }
  return "unknown";
}

bool expected_as_mutant(const AuditSpec& spec, const alg::Registry& registry) {
  if (spec.expect) return false;
  const auto& entries = registry.entries();
  return std::any_of(entries.begin(), entries.end(),
                     [&](const alg::AlgorithmEntry& e) { return e.mutant && e.id == spec.algorithm; });
}

AuditExpectation expected_verdict(const AuditSpec& spec, const alg::Registry& registry) {
  if (spec.expect) return *spec.expect;
  return expected_as_mutant(spec, registry) ? AuditExpectation::violation : AuditExpectation::pass;
}

std::string to_string(NeighbourKind kind) {
  for (const auto& [k, name] : kNeighbourNames)
    if (k == kind) return name;
  return "unknown";
}

}  // namespace dpb::verify
