#pragma once
// liu2022 Figure 1 (spec §6): the minibatch gradients A_i w of B samples at a fixed unit w, summarised by
// the norm of their mean (the red arrow) and their range (the blue cloud's radius). Not an estimator of
// anything: a diagnostic of the data that motivates DP-PCA's adaptive range (Sec. 4), released as
// diagnostics counters for the `diagnostic.<name>` metrics. Non-private.
#include "algorithms/registry.hpp"

namespace dpb::alg {

struct MinibatchGradientsParams {
  Eigen::Index batch = 400;  // Figure 1: 400 gradients
};

// Counters: mean_gradient_norm = ||g_bar||, gradient_range = max_i ||g_i - g_bar||,
// range_over_mean = their ratio; g_i = A_i w for the first `batch` samples, w Haar-random from the rng.
class MinibatchGradients final : public Estimator {
 public:
  explicit MinibatchGradients(MinibatchGradientsParams params);

  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;

 private:
  MinibatchGradientsParams params_;
};

}  // namespace dpb::alg
