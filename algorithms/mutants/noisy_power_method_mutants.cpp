// Mutants of the noisy power method (baseline.noisy_power_method; dugler2026 §2.9, Hardt & Price 2014),
// pinned to mode = corrected, the configuration whose claim is worst-case DP by exact Gaussian-DP
// composition of its L iterations.
#include "algorithms/baselines/noisy_power_method.hpp"
#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/zoo.hpp"

namespace dpb::alg::mutants {

std::vector<MutantSpec> noisy_power_method_mutants() {
  return {
      {.id = "mutant.noisy_power_method_noise_x07",
       .breaks = "baseline.noisy_power_method",
       .broken = "every iteration's Gaussian noise sd x0.7 (handed the budget whose analytic sd is 0.7 of the "
                 "claim's)",
       .pinned = {{"mode", std::string("corrected")}, {"calibration", std::string("analytic")}},
       .break_privacy = scaled_noise(0.7)},
      {.id = "mutant.noisy_power_method_budget_not_split",
       .breaks = "baseline.noisy_power_method",
       .broken = "the budget not split over the L iterations: each Gaussian release calibrated to the whole "
                 "(eps, delta) (noise multiplier z instead of sqrt(L) z)",
       .pinned = {{"mode", std::string("corrected")}},
       .broken_factory = [](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
         return baselines::make_noisy_power_method(p, /*compose_iterations=*/false);
       }},
  };
}

}  // namespace dpb::alg::mutants
