#pragma once
// Privacy parameters and the claim every estimator carries (DESIGN.md §3 "Privacy claims").
#include <string>
#include <vector>

namespace dpb::alg {

enum class Neighbours {
  replace,     // same size, one record replaced (the notion every sensitivity proof in the papers uses)
  add_remove,  // symmetric difference of size one
};

enum class ClaimScope {
  worst_case,               // holds for every pair of neighbouring datasets
  under_model_assumptions,  // holds only with high probability over data drawn from the model
  not_private,              // NO differential-privacy guarantee (non-private references, benchmarks such as
                            // cai2024's DP-Gauss*, paper-faithful modes known to leak): epsilon and delta
                            // then only record the budget the noise was nominally calibrated to (0 if none)
};

struct Privacy {
  double epsilon = 1.0;
  double delta = 0.0;  // 0 means pure epsilon-DP
  Neighbours neighbours = Neighbours::replace;
};

// The one rule for a privacy budget: epsilon finite and > 0, delta in [0, 1). Each throws dpb::InvalidArgument
// naming the rule, prefixed with "owner: " when an owner is given.
void validate_epsilon(double epsilon, const std::string& owner = "");
void validate_delta(double delta, const std::string& owner = "");
void validate(const Privacy& p);

struct PrivacyClaim {
  double epsilon = 0;
  double delta = 0;
  Neighbours neighbours = Neighbours::replace;
  ClaimScope scope = ClaimScope::worst_case;
  std::vector<std::string> conditions;  // e.g. "eps < 1 (classical Gaussian calibration)"
};

std::string to_string(Neighbours n);

// How far one neighbour moves a sum of terms each of norm <= 1 (in any norm): 2 under replace-one (one term
// out, another in, triangle inequality), 1 under add/remove. The sensitivity of every clipped sum, count
// and eigengap that does not exploit more structure (a PSD sum does: baselines::psd_sum_sensitivity).
double sum_sensitivity_factor(Neighbours n);
std::string to_string(ClaimScope s);
// One human-readable line, e.g. "(1, 1e-05)-DP, replace-one neighbours, worst case".
std::string describe(const PrivacyClaim& claim);

}  // namespace dpb::alg
