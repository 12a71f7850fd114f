// Mutants of DP-Gauss-1 (baseline.dp_gauss_1; dugler2026 §2.9): its Gaussian noise scaled down, the
// subtle break a constant slipped in a calibration makes, the add/remove sensitivity used under
// replace-one neighbours, a clip radius doubled while the noise keeps the old one, and the last record left
// unclipped. Pinned to the analytic calibration (the one noise_scaled_budget inverts) and the corrected mode,
// whose claim is
// (eps, delta) for replace-one neighbours.
#include "algorithms/baselines/dp_gauss_1.hpp"
#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/zoo.hpp"

namespace dpb::alg::mutants {
namespace {

MutantSpec scaled_noise_mutant(const char* id, double factor, const char* broken) {
  return {.id = id,
          .breaks = "baseline.dp_gauss_1",
          .broken = broken,
          .pinned = {{"calibration", std::string("analytic")}, {"mode", std::string("corrected")}},
          .break_privacy = scaled_noise(factor)};
}

}  // namespace

std::vector<MutantSpec> dp_gauss_1_mutants() {
  return {scaled_noise_mutant("mutant.dp_gauss_1_noise_x07", 0.7, "Gaussian noise standard deviation x0.7"),
          scaled_noise_mutant("mutant.dp_gauss_1_noise_x08", 0.8, "Gaussian noise standard deviation x0.8"),
          {.id = "mutant.dp_gauss_1_add_remove_sensitivity",
           .breaks = "baseline.dp_gauss_1",
           .broken = "noise for the add/remove sensitivity beta^2 under replace-one neighbours (sqrt(2) beta^2): "
                     "the printed Delta_1 (mode = faithful) under the corrected mode's claim",
           .pinned = {{"calibration", std::string("analytic")}, {"mode", std::string("corrected")}},
           .break_params = [](core::ParamMap& p, const Input&, Ledger&) { p.set("mode", std::string("faithful")); }},
          {.id = "mutant.dp_gauss_1_clip_radius_doubled",
           .breaks = "baseline.dp_gauss_1",
           .broken = "the A_i trace-clipped at 2 beta while the noise is still calibrated for beta (a clip radius "
                     "changed in one place, not the other)",
           .pinned = {{"calibration", std::string("analytic")}, {"mode", std::string("corrected")}},
           .broken_factory = [](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
             baselines::DuglerBaselineParams broken = baselines::dp_gauss_1_fields().read(p, "baseline.dp_gauss_1");
             broken.clip_radius_scale = 2;
             return baselines::make_dp_gauss_1(broken);
           }},
          {.id = "mutant.dp_gauss_1_last_record_unclipped",
           .breaks = "baseline.dp_gauss_1",
           .broken = "the clipping loop stops one record short: the last A_i enters the sum unclipped while the "
                     "ledger still declares the clipped sensitivity (invisible to an audit that replaces record 0)",
           .pinned = {{"calibration", std::string("analytic")}, {"mode", std::string("corrected")}},
           .broken_factory = [](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
             baselines::DuglerBaselineParams broken = baselines::dp_gauss_1_fields().read(p, "baseline.dp_gauss_1");
             broken.skip_last_clip = true;
             return baselines::make_dp_gauss_1(broken);
           },
           .ledger_hides_break = true}};
}

}  // namespace dpb::alg::mutants
