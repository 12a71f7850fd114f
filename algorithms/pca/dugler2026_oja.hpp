#pragma once
// Oja's algorithm (Huang et al. 2021), dugler2026 Algorithm 7 (spec §2.8): the non-private reference.
#include "algorithms/pca/dugler2026_learning_rates.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg::dugler2026 {

struct OjaParams {
  LearningRateSettings lr;  // over T = n steps
};

// Q_0 = QR(iid N(0,1)); Q_t = QR(Q_{t-1} + eta_t A_t Q_{t-1}), t = 1..n. Not private.
Estimate oja(const Input& in, const OjaParams& p, core::Rng& rng);
PrivacyClaim oja_claim();

}  // namespace dpb::alg::dugler2026
