#include "core/models/model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"

namespace dpb::core {

std::unique_ptr<SampleMatrices> Model::sample_matrices(Eigen::Index n, Rng& rng) const {
  return std::make_unique<VectorSamples>(sample(n, rng));
}

const ModelEntry& find_model(const std::string& id) {
  std::vector<std::string> ids;
  for (const auto& e : model_catalog()) {
    if (e.id == id) return e;
    ids.push_back(e.id);
  }
  throw InvalidArgument(fmt::format("unknown model '{}' (known: {})", id, fmt::join(ids, ", ")));
}

std::unique_ptr<Model> make_model(const std::string& id, const ParamMap& params, Rng& rng) {
  return find_model(id).make(params, rng);
}

}  // namespace dpb::core
