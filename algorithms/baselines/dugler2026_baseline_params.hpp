#pragma once
// The parameters the dugler2026 §2.9 baselines (DP-Gauss-1, DP-Gauss-2, DP-Power-Method) share: the
// clip radii of §7 F.1 (given, or from the oracle), the Gaussian calibration and the
// corrected | faithful mode (§8 ambiguity 5).
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "algorithms/baselines/analyze_gauss.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg::baselines {

struct DuglerClipRadii {
  double beta = 0;           // 0: beta = C sqrt(lambda1) + sigma sqrt(d log(n/zeta))
  double alpha = 0;          // 0: alpha = sigma d + sqrt(lambda1 d) + sigma sqrt(d log(n/zeta))
  double clip_constant = 1;  // C, unspecified in the paper
  double zeta = 0.01;        // clipping inactive w.p. >= 1 - zeta

  // The radii given, or derived from the oracle's lambda1 (top eigenvalue of Sigma) and sigma2;
  // without them throws dpb::InvalidArgument saying which parameter to give.
  double resolve_beta(const Input& in, Eigen::Index n, Eigen::Index d, const std::string& owner) const;
  double resolve_alpha(const Input& in, Eigen::Index n, Eigen::Index d, const std::string& owner) const;
};

struct DuglerBaselineParams {
  DuglerClipRadii radii;
  GaussianCalibration calibration = kAnalyzeGaussCalibration;
  bool faithful = false;  // mode = faithful: the paper's constants as printed
  // Mutant seam (not a parameter): DP-Gauss-1 clips at this multiple of beta, its noise still beta's
  // (mutant.dp_gauss_1_clip_radius_doubled). 1 in every real run.
  double clip_radius_scale = 1;
  // Mutant seam: DP-Gauss-1's clipping loop stops one record short, so the last A_i enters unclipped
  // (mutant.dp_gauss_1_last_record_unclipped). False in every real run.
  bool skip_last_clip = false;
};

// beta, clip_constant, zeta (and alpha when with_alpha), calibration, and mode with `mode_doc`: the table each
// baseline's own (derived) parameter struct inherits.
FieldTable<DuglerBaselineParams> dugler_baseline_fields(bool with_alpha, const std::string& mode_doc);

}  // namespace dpb::alg::baselines
