#include "algorithms/mutants/zoo.hpp"
#include "algorithms/registrations.hpp"

namespace dpb::alg {

namespace mutants {

std::vector<MutantSpec> mutant_zoo() {
  std::vector<MutantSpec> zoo;
  for (auto family :
       {analyze_gauss_mutants, noisy_power_method_mutants, dp_gauss_1_mutants, liu2022_mutants, dugler2026_mutants, cai2024_mutants,
        kumar2025_mutants})
    for (auto& spec : family()) zoo.push_back(std::move(spec));
  return zoo;
}

}  // namespace mutants

void register_mutants(Registry& registry) {
  for (auto& spec : mutants::mutant_zoo()) {
    const AlgorithmEntry& real = registry.find(spec.breaks);
    AlgorithmEntry entry = mutants::mutant_entry(real, std::move(spec));
    registry.add(std::move(entry));
  }
}

}  // namespace dpb::alg
