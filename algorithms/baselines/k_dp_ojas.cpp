#include "algorithms/baselines/k_dp_ojas.hpp"

#include <fmt/format.h>

#include "algorithms/baselines/k_dp_pca.hpp"
#include "algorithms/pca/liu2022_fields.hpp"
#include "core/errors.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "baseline.k_dp_ojas";
}

KDpOjas::KDpOjas(KDpOjasParams params) : params_(std::move(params)) {
  if (params_.component.schedule == PrivateOjaParams::Schedule::theory)
    throw InvalidArgument(
        fmt::format("{}: the theory schedule needs per-component oracle quantities; use "
                    "inverse_time or constant",
                    kOwner));
  PrivateOja check(params_.component);  // validates the component parameters now
}

PrivateOjaParams KDpOjas::component_params(const Input& in) const {
  // The clipping threshold needs lambda1 and gamma: resolve them once on the full problem (an upper bound
  // for every deflated one, so clipping stays as rare) and pass them explicitly.
  PrivateOjaParams component = params_.component;
  const auto m = liu2022::resolve_constants(component.constants, in.oracle, in.samples ? in.samples->n() : 1,
                                            component.zeta, {"lambda1", "gamma"}, kOwner);
  component.constants.lambda1 = m.lambda1;
  component.constants.gamma = m.gamma;
  if (component.practical.kind == liu2022::PracticalSchedule::inverse_time && !(component.practical.c1 > 0))
    throw InvalidArgument(
        fmt::format("{}: needs an explicit c1 > 0 (the deflated problems have no oracle)", kOwner));
  return component;
}

PrivacyClaim KDpOjas::claim(const Input& in) const {
  const PrivateOja solver(component_params(in));
  return deflation_claim(in, [&](const Input& component) { return solver.claim(component); });
}

Estimate KDpOjas::run(const Input& in, core::Rng& rng) const {
  const PrivateOja solver(component_params(in));
  Estimate est =
      deflate_components(in, kOwner, [&](const Input& sub, Eigen::Index) { return solver.run(sub, rng); });
  est.claim = claim(in);
  return est;
}

FieldTable<KDpOjasParams> k_dp_ojas_fields() {
  using P = PrivateOjaParams;
  FieldTable<P> component;
  liu2022::oja_step_field(component, {{"inverse_time", liu2022::OjaStep::inverse_time}, {"constant", liu2022::OjaStep::constant}},
                          "eta_t = c1/(c2 + t) or constant eta", "dugler2026 §7 F.2");
  FieldTable<liu2022::PracticalScheduleParams> schedule;
  schedule
      .real("c1", &liu2022::PracticalScheduleParams::c1, 1e-12, std::nullopt, "eta_t = c1/(c2 + t) (F.2: 1/(1 + t))",
            "dugler2026 §7 F.2")
      .real("c2", &liu2022::PracticalScheduleParams::c2, 0.0, std::nullopt, "eta_t = c1/(c2 + t)", "dugler2026 §7 F.2")
      .real("eta", &liu2022::PracticalScheduleParams::eta, 0.0, std::nullopt, "constant step; 0 means 0.5/(n/k)",
            "cai2024 §2.8");
  component.nest(&P::practical, schedule)
      .choice("noise_calibration", &P::calibration, liu2022::noise_calibration_names(),
              "Private Oja's noise multiplier (see liu2022.private_oja)", "liu2022 §3.1, §3.2",
              ChoiceOrder::default_first)
      .real("noise_constant", &P::noise_constant, 1e-12, std::nullopt, "C' (lemma3_1)", "liu2022 §2.2")
      .real("clip_constant", &P::clip_constant, 1e-12, std::nullopt, "C in beta", "liu2022 §2.2 line 3")
      .flag("shuffle", &P::shuffle, "uniform shuffle within each block", "liu2022 §2.2 line 1");
  FieldTable<liu2022::ModelConstantParams> constants;
  constants
      .real("lambda1", &liu2022::ModelConstantParams::lambda1, 0.0, std::nullopt, "top eigenvalue; 0 reads the oracle",
            "liu2022 §1.2")
      .real("gamma", &liu2022::ModelConstantParams::gamma, 0.0, std::nullopt, "A.4 gamma; 0 reads the oracle",
            "liu2022 §1.2");
  component.nest(&P::constants, constants);
  deflation_tail_fields(component, &P::constants, &P::zeta);
  FieldTable<KDpOjasParams> t;
  t.nest(&KDpOjasParams::component, component);
  return t;
}

void register_k_dp_ojas(Registry& r) {
  r.add(with_parameters(
      {.id = kOwner,
       .summary = "k-DP-Ojas: deflation, liu2022 Private Oja per component on fresh blocks, eta_t = 1/(1 + t)",
       .source = "Dügler & Sanyal 2025 via dugler2026 §2.9 / §7 F.2; components: Liu et al. 2022 Algorithm 2",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {"lambda1, gamma (clipping threshold, unless given)"},
       .privacy = "(eps, delta)-DP, replace-one, worst case: parallel composition over disjoint blocks; "
                  "no_amplification needs eps < 1"},
      k_dp_ojas_fields(), construct<KDpOjas>()));
}

}  // namespace dpb::alg
