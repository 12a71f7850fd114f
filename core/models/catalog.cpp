#include <fmt/format.h>
#include <atomic>

#include "core/errors.hpp"
#include "core/models/dugler.hpp"
#include "core/models/heavy_tailed.hpp"
#include "core/models/model.hpp"
#include "core/models/signal_plus_noise.hpp"
#include "core/models/sparse.hpp"
#include "core/models/spiked.hpp"

namespace dpb::core {

namespace {

std::vector<ModelEntry> builtin_models() {
  std::vector<ModelEntry> all = spiked_entries();
  all.push_back(signal_plus_noise_entry());
  for (auto& e : heavy_tailed_entries()) all.push_back(std::move(e));
  for (auto& e : dugler_entries()) all.push_back(std::move(e));
  for (auto& e : sparse_entries()) all.push_back(std::move(e));
  return all;
}

std::vector<ModelEntry>& registered_models() {
  static std::vector<ModelEntry> entries;  // function-local: safe from static-initialisation order
  return entries;
}

std::atomic<bool>& catalog_built() {
  static std::atomic<bool> built{false};
  return built;
}

}  // namespace

bool register_model(ModelEntry entry) {
  const auto taken = [&](const std::vector<ModelEntry>& entries) {
    for (const auto& e : entries)
      if (e.id == entry.id) return true;
    return false;
  };
  if (taken(builtin_models()) || taken(registered_models()))
    throw InvalidArgument(fmt::format("register_model({}): a model with this id already exists", entry.id));
  if (catalog_built())
    throw InvalidArgument(fmt::format(
        "register_model({}): the model catalog is already in use; register models at static initialisation",
        entry.id));
  registered_models().push_back(std::move(entry));
  return true;
}

const std::vector<ModelEntry>& model_catalog() {
  static const std::vector<ModelEntry> catalog = [] {
    std::vector<ModelEntry> all = builtin_models();
    for (auto& e : registered_models()) all.push_back(std::move(e));
    catalog_built() = true;
    return all;
  }();
  return catalog;
}

}  // namespace dpb::core
