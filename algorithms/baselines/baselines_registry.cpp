#include "algorithms/baselines/cai2024_dp_gauss.hpp"
#include "algorithms/baselines/dp_gauss_1.hpp"
#include "algorithms/baselines/dp_gauss_2.hpp"
#include "algorithms/baselines/exponential_mechanism_pca.hpp"
#include "algorithms/baselines/noisy_mean.hpp"
#include "algorithms/baselines/noisy_power_method.hpp"
#include "algorithms/baselines/nonprivate_pca.hpp"
#include "algorithms/registrations.hpp"

namespace dpb::alg {

// The baselines of dugler2026 §2.9 and cai2024 §2.8 / §6, and the pure-DP exponential mechanism liu2022
// §1 cites (the class its (eps, 0)-DP lower bounds are about), and the textbook Gaussian and Laplace mechanisms
// on a clipped mean (the auditor's calibration targets), in a fixed order. Choices the specs leave
// open are documented in docs/papers/dugler2026-baselines.md and docs/papers/cai2024-baselines.md.
void register_baselines(Registry& registry) {
  registry.add(baselines::nonprivate_pca_entry());
  registry.add(baselines::dp_gauss_1_entry());
  registry.add(baselines::dp_gauss_2_entry());
  registry.add(baselines::noisy_power_method_entry());
  registry.add(baselines::exponential_mechanism_pca_entry());
  registry.add(baselines::cai2024_dp_gauss_entry());
  registry.add(baselines::cai2024_dp_gauss_star_entry());
  registry.add(baselines::gaussian_mean_entry());
  registry.add(baselines::laplace_mean_entry());
}

}  // namespace dpb::alg
