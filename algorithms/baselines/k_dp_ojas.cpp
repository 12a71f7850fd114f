#include "algorithms/baselines/k_dp_ojas.hpp"

#include <fmt/format.h>

#include "algorithms/baselines/k_dp_pca.hpp"
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

KDpOjasParams KDpOjas::from_params(const core::ParamMap& p) {
  core::ParamMap component = p;
  // dugler2026 §7 F.2 defaults unless given: eta_j = 1/(1 + j), K = a = 1; each sample is used once, so the
  // calibration without amplification is valid at eps < 1 (the regime of dugler2026's experiments).
  const std::pair<const char*, core::ParamValue> defaults[] = {
      {"c1", 1.0},
      {"c2", 1.0},
      {"K", 1.0},
      {"a", 1.0},
      {"noise_calibration", std::string("no_amplification")}};
  for (const auto& [name, value] : defaults)
    if (!p.has(name)) component.set(name, value);
  KDpOjasParams o;
  o.component = PrivateOja::from_params(component);
  return o;
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

void register_k_dp_ojas(Registry& r) {
  using liu2022::flag_spec;
  r.add(
      {"baseline.k_dp_ojas",
       "k-DP-Ojas: deflation, liu2022 Private Oja per component on fresh blocks, eta_t = 1/(1 + t)",
       "Dügler & Sanyal 2025 via dugler2026 §2.9 / §7 F.2; components: Liu et al. 2022 Algorithm 2",
       {choice_param("step", "inverse_time", {"inverse_time", "constant"},
                     "eta_t = c1/(c2 + t) or constant eta", "dugler2026 §7 F.2"),
        real_param("c1", 1, 1e-12, std::nullopt, "eta_t = c1/(c2 + t) (F.2: 1/(1 + t))", "dugler2026 §7 F.2"),
        real_param("c2", 1, 0, std::nullopt, "eta_t = c1/(c2 + t)", "dugler2026 §7 F.2"),
        real_param("eta", 0, 0, std::nullopt, "constant step; 0 means 0.5/(n/k)", "cai2024 §2.8"),
        choice_param("noise_calibration", "no_amplification",
                     {"no_amplification", "proven", "lemma3_1", "shuffling_bound"},
                     "Private Oja's noise multiplier (see liu2022.private_oja)", "liu2022 §3.1, §3.2"),
        real_param("noise_constant", 1, 1e-12, std::nullopt, "C' (lemma3_1)", "liu2022 §2.2"),
        real_param("clip_constant", 1, 1e-12, std::nullopt, "C in beta", "liu2022 §2.2 line 3"),
        flag_spec("shuffle", true, "uniform shuffle within each block", "liu2022 §2.2 line 1"),
        real_param("lambda1", 0, 0, std::nullopt, "top eigenvalue; 0 reads the oracle", "liu2022 §1.2"),
        real_param("gamma", 0, 0, std::nullopt, "A.4 gamma; 0 reads the oracle", "liu2022 §1.2"),
        real_param("K", 1, 1e-12, std::nullopt, "A.4 K (dugler2026 §7: 1)", "dugler2026 §7"),
        real_param("a", 1, 1e-12, std::nullopt, "A.4 a (dugler2026 §7: 1)", "dugler2026 §7"),
        real_param("zeta", 0.01, 1e-12, 0.5, "failure probability", "dugler2026 §7")},
       DataNeed::sample_matrices,
       {"lambda1, gamma (clipping threshold, unless given)"},
       "(eps, delta)-DP, replace-one, worst case: parallel composition over disjoint blocks; "
       "no_amplification "
       "needs eps < 1",
       [](const core::ParamMap& p) { return std::make_unique<KDpOjas>(KDpOjas::from_params(p)); }});
}

}  // namespace dpb::alg
