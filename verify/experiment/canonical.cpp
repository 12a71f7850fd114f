#include "verify/experiment/canonical.hpp"

#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include "algorithms/registry.hpp"
#include "core/rng.hpp"

namespace dpb::verify {

nlohmann::json to_json(const core::ParamValue& value) {
  return std::visit([](const auto& v) { return nlohmann::json(v); }, value);
}

nlohmann::json to_json(const core::ParamMap& params) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : params.values()) j[name] = to_json(value);
  return j;
}

nlohmann::json canonical_form(const ExperimentSpec& spec) {
  nlohmann::json grid = nlohmann::json::array();
  for (const auto& group : spec.grid) grid.push_back({{"axes", group.axes}, {"values", group.values}});
  nlohmann::json algorithms = nlohmann::json::array();
  for (const auto& a : spec.algorithms) {
    nlohmann::json algorithm = {{"id", a.id}, {"label", a.label}, {"parameters", to_json(a.resolved)}};
    if (const auto& provenance = alg::algorithm_registry().find(a.id).provenance)
      algorithm["provenance"] = provenance(a.resolved);
    algorithms.push_back(algorithm);
  }
  nlohmann::json j = {{"dpbounds", DPB_VERSION},  // another version may compute other rows
          {"stream_layout", core::kStreamLayout},  // another map from (seed, stream) to numbers does
          {"name", spec.name},
          {"seed", spec.seed},
          {"trials", spec.trials},
          {"model", {{"name", spec.model}, {"parameters", to_json(spec.model_params)}}},
          {"n", spec.n},
          {"grid", grid},
          {"privacy",
           {{"epsilon", spec.privacy.epsilon},
            {"delta", spec.privacy.delta},
            {"neighbours", alg::to_string(spec.privacy.neighbours)}}},
          {"algorithms", algorithms},
          {"metrics", spec.metrics}};
  if (spec.stream_batch > 0) j["stream_batch"] = spec.stream_batch;  // other draws; absent keeps the old hashes
  if (const auto& d = spec.data)  // only when present, so model experiments keep their hashes
    j["data"] = {{"name", d->name},         {"path", d->path},           {"digits", d->mnist.digits},
                 {"per_digit", d->mnist.per_digit}, {"pool", d->mnist.pool}, {"center", d->mnist.center},
                 {"rank", d->rank},         {"noise_eigenvalues", d->noise_eigenvalues}};
  return j;
}

std::string content_hash(const ExperimentSpec& spec) {
  return fmt::format("{:016x}", core::hash_name(canonical_form(spec).dump()));
}

}  // namespace dpb::verify
