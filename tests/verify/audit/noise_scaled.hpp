#pragma once
// A test double: a registered algorithm whose every Gaussian release draws `factor` times the sd its ledger entry
// declares (alg::ScopedGaussianNoiseFactor, on the thread that runs it): `recorded` writes the scaled sd into the
// ledger, `hidden` keeps the honest entry (a slip no ledger shows).
#include <memory>
#include <utility>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/registry.hpp"

namespace dpb::test {

class NoiseScaled final : public alg::Estimator {
 public:
  NoiseScaled(std::unique_ptr<alg::Estimator> inner, double factor, alg::NoiseDefect defect)
      : inner_(std::move(inner)), factor_(factor), defect_(defect) {}
  alg::Estimate run(const alg::Input& in, core::Rng& rng) const override {
    const alg::ScopedGaussianNoiseFactor scaled(factor_, defect_);
    return inner_->run(in, rng);
  }
  alg::PrivacyClaim claim(const alg::Input& in) const override { return inner_->claim(in); }

 private:
  std::unique_ptr<alg::Estimator> inner_;
  double factor_;
  alg::NoiseDefect defect_;
};

// `real`'s registry entry under `id`, its noise scaled as above (its worst case is then the generic one unless the
// caller sets `breaks`).
inline alg::AlgorithmEntry noise_scaled(const alg::AlgorithmEntry& real, std::string id, double factor,
                                        alg::NoiseDefect defect) {
  alg::AlgorithmEntry entry = real;
  entry.id = std::move(id);
  entry.factory = [make = real.factory, factor, defect](const core::ParamMap& p) {
    return std::make_unique<NoiseScaled>(make(p), factor, defect);
  };
  return entry;
}

}  // namespace dpb::test
