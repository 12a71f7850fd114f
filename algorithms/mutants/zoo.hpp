#pragma once
// The mutant zoo (docs/mutants.md): at least two deliberately broken variants per algorithm family,
// each naming the real algorithm it breaks and how. Registered by register_mutants
// (algorithms/mutants/mutants_registry.cpp) as "mutant.*", never in default suites.
#include <vector>

#include "algorithms/mutants/mutant.hpp"

namespace dpb::alg::mutants {

std::vector<MutantSpec> analyze_gauss_mutants();  // baselines: baseline.dp_gauss (Analyze Gauss)
std::vector<MutantSpec> noisy_power_method_mutants();  // baselines: baseline.noisy_power_method
std::vector<MutantSpec> dp_gauss_1_mutants();          // baselines: baseline.dp_gauss_1
std::vector<MutantSpec> liu2022_mutants();        // liu2022 Oja family: private_mean, private_top_eigenvalue
std::vector<MutantSpec> dugler2026_mutants();     // dugler2026 Oja family: truncated_mean, priv_range
std::vector<MutantSpec> cai2024_mutants();        // cai2024 Gaussian-mechanism family
std::vector<MutantSpec> kumar2025_mutants();      // kumar2025 sparse family

// Every family's mutants, in the order above.
std::vector<MutantSpec> mutant_zoo();

}  // namespace dpb::alg::mutants
