#include "core/models/dugler.hpp"
#include "core/models/heavy_tailed.hpp"
#include "core/models/model.hpp"
#include "core/models/signal_plus_noise.hpp"
#include "core/models/sparse.hpp"
#include "core/models/spiked.hpp"

namespace dpb::core {

const std::vector<ModelEntry>& model_catalog() {
  static const std::vector<ModelEntry> catalog = [] {
    std::vector<ModelEntry> all = spiked_entries();
    all.push_back(signal_plus_noise_entry());
    for (auto& e : heavy_tailed_entries()) all.push_back(std::move(e));
    for (auto& e : dugler_entries()) all.push_back(std::move(e));
    for (auto& e : sparse_entries()) all.push_back(std::move(e));
    return all;
  }();
  return catalog;
}

}  // namespace dpb::core
