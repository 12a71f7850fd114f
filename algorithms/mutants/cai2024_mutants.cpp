// Mutants of the cai2024 Gaussian-mechanism family (spec cai2024 §2.2, §2.6): Algorithm 1
// (cai2024.gaussian_mechanism) and the private spike strength of §7.2 (cai2024.private_spike). Their
// claims hold under the model only; the sensitivities Delta1, Delta2 are high-probability bounds.
#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/zoo.hpp"

namespace dpb::alg::mutants {
namespace {

// The classical calibration refuses a release eps >= 1, which 1/eps is: both sides of these mutants
// run the analytic one (cai2024 §8.1 item 2 allows either).
core::ParamMap analytic_calibration() { return {{"calibration", std::string("analytic")}}; }

Privacy inverted(const Privacy& asked, const Input&) { return inverted_epsilon(asked); }

}  // namespace

std::vector<MutantSpec> cai2024_mutants() {
  return {
      {.id = "mutant.gaussian_mechanism_inverted_eps",
       .breaks = "cai2024.gaussian_mechanism",
       .broken = "Gaussian noise of steps 2 and 3 calibrated at 1/eps instead of eps",
       .pinned = analytic_calibration(),
       .break_privacy = inverted},
      {.id = "mutant.private_spike_inverted_eps",
       .breaks = "cai2024.private_spike",
       .broken = "Gaussian noise on the top eigenvalues calibrated at 1/eps instead of eps",
       .pinned = analytic_calibration(),
       .break_privacy = inverted},
  };
}

}  // namespace dpb::alg::mutants
