#include "verify/experiment/catalog.hpp"

#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/models/model.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {
namespace {

std::string type_name(alg::ParamType t) {
  switch (t) {
    case alg::ParamType::real: return "real";
    case alg::ParamType::integer: return "integer";
    case alg::ParamType::choice: return "choice";
    case alg::ParamType::text: return "text";
  }
  return "?";
}

nlohmann::json value_json(const core::ParamValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

nlohmann::json algorithms_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& e : alg::algorithm_registry().entries()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : e.params) {
      nlohmann::json j = {{"name", p.name}, {"type", type_name(p.type)}, {"default", value_json(p.default_value)},
                          {"doc", p.doc},   {"spec", p.spec_ref}};
      if (p.min) j["min"] = *p.min;
      if (p.max) j["max"] = *p.max;
      if (!p.choices.empty()) j["choices"] = p.choices;
      params.push_back(j);
    }
    out.push_back({{"id", e.id},
                   {"summary", e.summary},
                   {"source", e.source},
                   {"needs", alg::to_string(e.needs)},
                   {"oracle", e.oracle_quantities},
                   {"privacy", e.privacy},
                   {"params", params},
                   {"mutant", e.mutant},
                   {"breaks", e.breaks}});
  }
  return out;
}

nlohmann::json models_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : core::model_catalog()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& p : m.params) params.push_back({{"name", p.name}, {"default", p.default_value}, {"doc", p.doc}});
    out.push_back({{"id", m.id}, {"summary", m.summary}, {"source", m.source}, {"params", params}});
  }
  return out;
}

nlohmann::json theorems_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto* t : all_theorems()) out.push_back(theorem_json(*t));
  return out;
}

void check_kind(const std::string& kind) {
  for (const auto& k : catalog_kinds())
    if (k == kind) return;
  throw InvalidArgument(fmt::format("cannot list '{}': choose one of {}", kind, fmt::join(catalog_kinds(), ", ")));
}

}  // namespace

const std::vector<std::string>& catalog_kinds() {
  static const std::vector<std::string> kinds = {"algorithms", "models", "theorems"};
  return kinds;
}

nlohmann::json catalog_json(const std::string& kind) {
  check_kind(kind);
  if (kind == "algorithms") return algorithms_json();
  if (kind == "models") return models_json();
  return theorems_json();
}

std::vector<std::string> catalog_ids(const std::string& kind) {
  std::vector<std::string> ids;
  for (const auto& entry : catalog_json(kind)) ids.push_back(entry.at("id").get<std::string>());
  return ids;
}

}  // namespace dpb::verify
