#pragma once
// The two-stage method of dugler2026 Fig. 2 (spec §2.3 "hybrid"): ADADPO on a first part of the data
// gives Q_0; TADADPO refines it on the remaining, disjoint matrices.
#include "algorithms/pca/dugler2026_adadpo.hpp"
#include "algorithms/pca/dugler2026_tadadpo.hpp"

namespace dpb::alg::dugler2026 {

struct TwoStageParams {
  double warm_fraction = 0.5;  // ADADPO's share of n (spec ambiguity 15: 1/2 [inferred])
  AdadpoParams warm;
  TadadpoParams refine;
};

Estimate two_stage(const Input& in, const TwoStageParams& p, core::Rng& rng);
PrivacyClaim two_stage_claim(const TwoStageParams& p, const Input& in);

}  // namespace dpb::alg::dugler2026
