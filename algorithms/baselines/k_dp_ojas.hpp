#pragma once
// baseline.k_dp_ojas (dugler2026 §2.9, "k-DP-Ojas", Dügler & Sanyal 2025): deflation with liu2022's
// Private Oja (Algorithm 2) per component on fresh blocks of floor(n/k) samples, step eta_t = 1/(1 + t)
// for every component (dugler2026 §7 F.2). Built from liu2022 components, so it is registered from
// algorithms/pca/liu2022_registry.cpp.
#include "algorithms/pca/private_oja.hpp"

namespace dpb::alg {

struct KDpOjasParams {
  PrivateOjaParams component;  // defaults: eta_t = 1/(1 + t), no_amplification calibration, K = a = 1
  KDpOjasParams() {
    component.practical = {liu2022::PracticalSchedule::inverse_time, 1, 1, 1, 0};
    component.calibration = PrivateOjaParams::NoiseCalibration::no_amplification;
    component.constants.K = 1;
    component.constants.a = 1;
  }
};

class KDpOjas final : public Estimator {
 public:
  explicit KDpOjas(KDpOjasParams params);
  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;

 private:
  // The component parameters with lambda1 and gamma resolved on the full problem.
  PrivateOjaParams component_params(const Input& in) const;
  KDpOjasParams params_;
};

void register_k_dp_ojas(Registry& registry);

}  // namespace dpb::alg
