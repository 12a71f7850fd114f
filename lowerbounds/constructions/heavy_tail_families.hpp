#pragma once
// The heavy-tailed families behind liu2022 Thm 5.4 and Thm C.1 (spec: liu2022 §5.4, §5.5, §7.3-7.4): one
// core::SpikeOrGaussianMixture per packing vector, with the exact pairwise TV the lower bounds use.
// Every member shares the Gaussian component and puts its spike mass q on the atoms +-c v; atoms of
// distinct, non-antipodal v never coincide, so TV(P_v, P_v') = q exactly and KL(P_v, P_v') = +infinity.
#include <memory>
#include <vector>

#include "core/models/heavy_tailed.hpp"
#include "lowerbounds/constructions/sphere_packing.hpp"

namespace dpb::lower {

struct HeavyTailFamily {
  std::vector<std::unique_ptr<core::SpikeOrGaussianMixture>> members;  // member i uses packing column i
  double spike_probability = 0;                                        // q
  double spike_radius = 0;                                             // c: the atoms are +-c v
  double gaussian_variance = 0;  // the Gaussian component is N(0, gaussian_variance I_d)
  double lambda1 = 0, lambda2 = 0;
  double pairwise_tv = 0;  // = q, exact
};

// Thm 5.4, Eq. (25): with probability alpha x = s alpha^{-1/4} v, else N(0, I_d); alpha in (0, 1].
// lambda1 = 1 - alpha + sqrt(alpha), lambda2 = 1 - alpha.
HeavyTailFamily liu2022_thm54_family(const SpherePacking& packing, double alpha);

// Thm C.1's spike probability p = (1 - lambda2/lambda1)/d (Eq. (34)), which is also the exact pairwise TV.
// Throws InvalidArgument unless lambda1 > lambda2 > 0 and d >= 1.
double liu2022_thmC1_spike_probability(double d, double lambda1, double lambda2);

// Thm C.1, Eq. (34): with p as above, x = s sqrt(d lambda1) v with probability p, else
// N(0, lambda2/(1 - p) I_d) ([003]'s variance; Ambiguity 26). Needs lambda1 > lambda2 > 0.
HeavyTailFamily liu2022_thmC1_family(const SpherePacking& packing, double lambda1, double lambda2);

}  // namespace dpb::lower
