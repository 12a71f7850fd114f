#include "algorithms/registry.hpp"

#include <atomic>
#include <cmath>
#include <set>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/registrations.hpp"
#include "core/errors.hpp"

namespace dpb::alg {

const Eigen::MatrixXd* given_start(const Input& in, Eigen::Index d, Eigen::Index k, const std::string& owner) {
  if (!in.start) return nullptr;
  const Eigen::MatrixXd& S = *in.start;
  if (S.rows() != d || S.cols() < k)
    throw InvalidArgument(fmt::format("{}: the given start is {} x {}; it needs d = {} rows and at least k = {} "
                                      "columns",
                                      owner, S.rows(), S.cols(), d, k));
  const Eigen::MatrixXd gram = S.leftCols(k).transpose() * S.leftCols(k);  // the columns a run uses
  if (!gram.isIdentity(1e-9))
    throw InvalidArgument(fmt::format("{}: the given start must have orthonormal columns", owner));
  return in.start;
}

namespace {

std::vector<std::string> ids_of(const std::deque<AlgorithmEntry>& entries) {
  std::vector<std::string> ids;
  for (const auto& e : entries) ids.push_back(e.id);
  return ids;
}

void check_value(const AlgorithmEntry& entry, const ParamSpec& spec, const core::ParamValue& value) {
  const std::string where = fmt::format("{}: parameter '{}'", entry.id, spec.name);
  if (spec.type == ParamType::text) {
    if (!std::holds_alternative<std::string>(value)) throw InvalidArgument(fmt::format("{} must be a string", where));
    return;
  }
  if (spec.type == ParamType::choice) {
    const auto* s = std::get_if<std::string>(&value);
    bool ok = false;
    if (s)
      for (const auto& c : spec.choices) ok = ok || c == *s;
    if (!ok) throw InvalidArgument(fmt::format("{} must be one of: {}", where, fmt::join(spec.choices, ", ")));
    return;
  }
  const auto* x = std::get_if<double>(&value);
  if (!x) throw InvalidArgument(fmt::format("{} must be a number", where));
  if (spec.type == ParamType::integer && *x != std::floor(*x))
    throw InvalidArgument(fmt::format("{} must be an integer, got {}", where, *x));
  if ((spec.min && *x < *spec.min) || (spec.max && *x > *spec.max))
    throw InvalidArgument(fmt::format("{} must lie in [{}, {}], got {}", where,
                                      spec.min ? fmt::format("{}", *spec.min) : "-inf",
                                      spec.max ? fmt::format("{}", *spec.max) : "inf", *x));
}

}  // namespace

ParamSpec real_param(std::string name, double default_value, std::optional<double> min,
                     std::optional<double> max, std::string doc, std::string spec_ref) {
  return {std::move(name), ParamType::real, default_value, min, max, {}, std::move(doc), std::move(spec_ref)};
}

ParamSpec integer_param(std::string name, double default_value, std::optional<double> min, std::string doc,
                        std::string spec_ref) {
  return {std::move(name), ParamType::integer, default_value, min, std::nullopt, {},
          std::move(doc),  std::move(spec_ref)};
}

ParamSpec choice_param(std::string name, std::string default_value, std::vector<std::string> choices,
                       std::string doc, std::string spec_ref) {
  return {std::move(name), ParamType::choice,  std::move(default_value), std::nullopt,
          std::nullopt,    std::move(choices), std::move(doc),           std::move(spec_ref)};
}

ParamSpec text_param(std::string name, std::string default_value, std::string doc, std::string spec_ref) {
  return {std::move(name), ParamType::text, std::move(default_value), std::nullopt, std::nullopt, {},
          std::move(doc),  std::move(spec_ref)};
}

const char* to_string(DataNeed need) {
  switch (need) {
    case DataNeed::vectors: return "vectors";
    case DataNeed::sample_matrices: return "sample_matrices";
    case DataNeed::psd_samples: return "psd_samples";
  }
  return "?";
}

std::string display_name(const AlgorithmEntry& entry) {
  constexpr std::size_t kLongestName = 40;
  const auto colon = entry.summary.find(": ");
  if (entry.mutant || colon == std::string::npos || colon == 0 || colon > kLongestName) return entry.id;
  return entry.summary.substr(0, colon);
}

namespace {

// What every entry must satisfy, however it is added.
void check_entry(const AlgorithmEntry& entry) {
  if (entry.id.empty() || !entry.factory)
    throw InvalidArgument("algorithm registry: an entry needs an id and a factory");
  for (const auto& spec : entry.params) check_value(entry, spec, spec.default_value);
}

}  // namespace

void Registry::add(AlgorithmEntry entry) {
  check_entry(entry);
  for (const auto& e : entries_)
    if (e.id == entry.id) throw InvalidArgument(fmt::format("algorithm registry: id '{}' registered twice", entry.id));
  entries_.push_back(std::move(entry));
}

const AlgorithmEntry& Registry::find(const std::string& id) const {
  for (const auto& e : entries_)
    if (e.id == id) return e;
  const auto ids = ids_of(entries_);
  throw InvalidArgument(fmt::format("unknown algorithm '{}' (known: {})", id,
                                    ids.empty() ? std::string("none registered yet") : fmt::format("{}", fmt::join(ids, ", "))));
}

core::ParamMap Registry::resolve(const std::string& id, const core::ParamMap& given) const {
  const AlgorithmEntry& entry = find(id);
  std::vector<std::string> names;
  for (const auto& spec : entry.params) names.push_back(spec.name);
  given.require_known(names, entry.id);
  core::ParamMap resolved;
  for (const auto& spec : entry.params) {
    const auto it = given.values().find(spec.name);
    const core::ParamValue& value = it == given.values().end() ? spec.default_value : it->second;
    check_value(entry, spec, value);
    resolved.set(spec.name, value);
  }
  return resolved;
}

namespace {

// Every estimator the registry makes: after each run the ledger's spend is checked against the claim
// (accountant.hpp), so no run returns an estimate whose claim its mechanisms do not back. Mutants are
// built to overspend: their ledgers are kept for the auditor and the reports, never checked.
class LedgerCheckedEstimator final : public Estimator {
 public:
  LedgerCheckedEstimator(std::unique_ptr<Estimator> inner, std::string id)
      : inner_(std::move(inner)), id_(std::move(id)) {}
  Estimate run(const Input& in, core::Rng& rng) const override {
    Estimate estimate = inner_->run(in, rng);
    check_claim(estimate.ledger, estimate.claim, id_);
    return estimate;
  }
  PrivacyClaim claim(const Input& in) const override { return inner_->claim(in); }

 private:
  std::unique_ptr<Estimator> inner_;
  std::string id_;
};

}  // namespace

std::unique_ptr<Estimator> Registry::make(const std::string& id, const core::ParamMap& given) const {
  const AlgorithmEntry& entry = find(id);
  std::unique_ptr<Estimator> estimator = entry.factory(resolve(id, given));
  if (entry.mutant) return estimator;
  return std::make_unique<LedgerCheckedEstimator>(std::move(estimator), id);
}

namespace {

std::vector<AlgorithmEntry>& plugin_entries() {
  static std::vector<AlgorithmEntry> entries;  // function-local: safe from static-initialisation order
  return entries;
}

std::atomic<bool>& registry_built() {
  static std::atomic<bool> built{false};
  return built;
}

}  // namespace

bool register_plugin_algorithm(AlgorithmEntry entry) {
  if (registry_built())
    throw InvalidArgument("register_plugin_algorithm(" + entry.id +
                          "): the registry is already in use; register plug-ins at static initialisation");
  plugin_entries().push_back(std::move(entry));
  return true;
}

namespace {

Registry& the_registry() {
  static Registry registry = [] {
    Registry r;
    register_liu2022(r);
    register_dugler2026(r);
    register_cai2024(r);
    register_kumar2025(r);
    register_baselines(r);
    register_external(r);
    for (auto& entry : plugin_entries()) r.add(std::move(entry));
    register_mutants(r);  // after every real algorithm: each mutant copies the schema of the one it breaks
    registry_built() = true;
    return r;
  }();
  return registry;
}

std::set<std::string>& runtime_ids() {
  static std::set<std::string> ids;
  return ids;
}

}  // namespace

const Registry& algorithm_registry() { return the_registry(); }

void register_runtime_algorithm(AlgorithmEntry entry) {
  Registry& registry = the_registry();
  if (!runtime_ids().count(entry.id)) {
    for (const auto& e : registry.entries())
      if (e.id == entry.id)
        throw InvalidArgument(fmt::format("'{}' is the id of a built-in algorithm; choose another", entry.id));
    const std::string id = entry.id;
    registry.add(std::move(entry));
    runtime_ids().insert(id);
    return;
  }
  check_entry(entry);
  for (auto& e : registry.entries_)
    if (e.id == entry.id) e = std::move(entry);
}

}  // namespace dpb::alg
