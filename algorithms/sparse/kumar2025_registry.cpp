// Registration of kumar2025's algorithms (spec: kumar2025 §2, §3, §8.1), in a fixed order. Each adapter lives
// beside its algorithm (algorithms/sparse/*_entry.cpp); what they share is in kumar2025_adapter.hpp.
#include "algorithms/registrations.hpp"
#include "algorithms/sparse/kumar2025_adapter.hpp"

namespace dpb::alg {

void register_kumar2025(Registry& registry) {
  registry.add(kumar2025::private_covariance_entry());
  registry.add(kumar2025::private_sparse_pca_entry());
  registry.add(kumar2025::private_norm_entry());
  registry.add(kumar2025::sparse_pca_pipeline_entry());
  registry.add(kumar2025::exponential_support_selection_entry());
}

}  // namespace dpb::alg
