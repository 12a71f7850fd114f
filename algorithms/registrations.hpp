#pragma once
// One registration function per algorithm family; each adds its estimators to the registry in a
// fixed order. algorithm_registry() calls them all.
#include "algorithms/registry.hpp"

namespace dpb::alg {

void register_liu2022(Registry& registry);     // algorithms/pca/liu2022_registry.cpp
void register_dugler2026(Registry& registry);  // algorithms/pca/dugler2026_registry.cpp
void register_cai2024(Registry& registry);     // algorithms/covariance/cai2024_registry.cpp
void register_kumar2025(Registry& registry);   // algorithms/sparse/kumar2025_registry.cpp
void register_baselines(Registry& registry);   // algorithms/baselines/baselines_registry.cpp
void register_external(Registry& registry);    // algorithms/external/external_registry.cpp
// The mutant zoo (AlgorithmEntry::mutant); needs every real algorithm it breaks already registered.
void register_mutants(Registry& registry);  // algorithms/mutants/mutants_registry.cpp

}  // namespace dpb::alg
