// Mutants of DP-Gauss-1 (baseline.dp_gauss_1; dugler2026 §2.9): its Gaussian noise scaled down, the
// subtle break a constant slipped in a calibration makes, and the add/remove sensitivity used under
// replace-one neighbours. Pinned to the analytic calibration (the one noise_scaled_budget inverts) and the
// corrected mode, whose claim is (eps, delta) for replace-one neighbours.
#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/zoo.hpp"

namespace dpb::alg::mutants {
namespace {

MutantSpec scaled_noise(const char* id, double factor, const char* broken) {
  return {.id = id,
          .breaks = "baseline.dp_gauss_1",
          .broken = broken,
          .pinned = {{"calibration", std::string("analytic")}, {"mode", std::string("corrected")}},
          .break_privacy = [factor](const Privacy& asked, const Input&) {
            // The bisection costs more than a run at small n: remember the last budget (per thread; the
            // mutants share this closure type, so the factor is part of the key).
            thread_local double last_factor = 0;
            thread_local Privacy last_asked{0, 0}, last_broken{0, 0};
            if (factor != last_factor || asked.epsilon != last_asked.epsilon || asked.delta != last_asked.delta ||
                asked.neighbours != last_asked.neighbours) {
              last_factor = factor;
              last_asked = asked;
              last_broken = noise_scaled_budget(asked, factor);
            }
            return last_broken;
          }};
}

}  // namespace

std::vector<MutantSpec> dp_gauss_1_mutants() {
  return {scaled_noise("mutant.dp_gauss_1_noise_x07", 0.7, "Gaussian noise standard deviation x0.7"),
          scaled_noise("mutant.dp_gauss_1_noise_x08", 0.8, "Gaussian noise standard deviation x0.8"),
          {.id = "mutant.dp_gauss_1_add_remove_sensitivity",
           .breaks = "baseline.dp_gauss_1",
           .broken = "noise for the add/remove sensitivity beta^2 under replace-one neighbours (sqrt(2) beta^2): "
                     "the printed Delta_1 (mode = faithful) under the corrected mode's claim",
           .pinned = {{"calibration", std::string("analytic")}, {"mode", std::string("corrected")}},
           .break_params = [](core::ParamMap& p, const Input&, Ledger&) { p.set("mode", std::string("faithful")); }}};
}

}  // namespace dpb::alg::mutants
