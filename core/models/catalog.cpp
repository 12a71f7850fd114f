#include "core/models/model.hpp"

namespace dpb::core {

const std::vector<ModelEntry>& model_catalog() {
  static const std::vector<ModelEntry> catalog = {};
  return catalog;
}

}  // namespace dpb::core
