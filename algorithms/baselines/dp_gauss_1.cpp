#include "algorithms/baselines/dp_gauss_1.hpp"

#include "algorithms/baselines/dugler2026_baseline_params.hpp"
#include "algorithms/baselines/psd_samples.hpp"
#include "algorithms/baselines/trace_clipping.hpp"

namespace dpb::alg::baselines {
namespace {

constexpr const char* kId = "baseline.dp_gauss_1";

class DpGauss1 final : public Estimator {
 public:
  explicit DpGauss1(DuglerBaselineParams p) : p_(p) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    const PsdSamples data = PsdSamples::from(in, kId);
    require_gaussian_privacy(in.privacy, kId);
    require_rank(in.k, data.d(), kId, "k eigenvectors of a d x d matrix");
    const double beta = p_.radii.resolve_beta(in, data.n(), data.d(), kId);
    const double clip_radius = p_.clip_radius_scale * beta;  // beta, except under the mutant seam
    Estimate out;
    out.diagnostics.counters["beta"] = beta;
    // Step 1 (spec: dugler2026 §2.9): At_i <- A_i min{1, beta^2 / Tr(A_i)}.
    Eigen::VectorXd c = trace_clip_weights(data, clip_radius, out.diagnostics);
    if (p_.skip_last_clip) c(data.n() - 1) = 1;
    // Step 2: X <- sum_i At_i (the SUM, not the mean).
    const Eigen::MatrixXd X = data.weighted_sum(c);
    // Steps 3-4: X' <- X + E, E symmetric N(0, Delta_1^2); top-k eigenvectors of X'.
    const core::EigenPairs top = dp_gauss_1_release(X, in.k, beta, clip_radius, in.privacy, p_.calibration, p_.faithful,
                                                    "Analyze-Gauss release of the trace-clipped sum",
                                                    out.ledger, rng, out.diagnostics);
    out.Q = top.vectors;
    out.eigenvalues = top.values / static_cast<double>(data.n());  // second-moment scale (post-processing)
    out.claim = claim(in);
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    require_gaussian_privacy(in.privacy, kId);
    // The claim scales out beta: noise and sensitivity are both proportional to beta^2.
    const double assumed = p_.faithful ? 1.0 : psd_sum_sensitivity(1.0, in.privacy.neighbours);
    const double sd = gaussian_sigma(p_.calibration, assumed, in.privacy.epsilon, in.privacy.delta);
    std::vector<std::string> conditions = {
        "every A_i trace-clipped to Tr A_i <= beta^2 with beta fixed before seeing the data (given, the "
        "caller's public clip radius, or from the model's population quantities)"};
    if (p_.calibration == GaussianCalibration::classical)
      conditions.push_back("eps < 1 (classical Gaussian calibration)");
    return gaussian_release_claim(in.privacy, sd, psd_sum_sensitivity(1.0, in.privacy.neighbours),
                                  std::move(conditions));
  }

 private:
  DuglerBaselineParams p_;  // faithful: noise for sensitivity beta^2 whatever the neighbour notion
};

}  // namespace

core::EigenPairs dp_gauss_1_release(const Eigen::MatrixXd& clipped_sum, Eigen::Index k, double beta,
                                    double clip_radius, const Privacy& budget, GaussianCalibration calibration,
                                    bool as_printed, const std::string& step, Ledger& ledger, core::Rng& rng,
                                    Diagnostics& diagnostics) {
  // Delta_1 = beta^2 sqrt(2 log(1.25/delta)) / eps as printed (classical calibration of sensitivity beta^2).
  const double trace_bound = beta * beta;
  const double sd = gaussian_sigma(calibration,
                                   as_printed ? trace_bound : psd_sum_sensitivity(trace_bound, budget.neighbours),
                                   budget.epsilon, budget.delta);
  diagnostics.counters["noise_sd"] = sd;
  // The ledger gets the true sensitivity, so the printed noise under replace-one (or a clip radius that is not
  // the noise's) costs what it really costs.
  const double sensitivity = psd_sum_sensitivity(clip_radius * clip_radius, budget.neighbours);
  return analyze_gauss(clipped_sum, k, gaussian_entry(step, sensitivity, sd, budget), ledger, rng);
}

std::unique_ptr<Estimator> make_dp_gauss_1(const DuglerBaselineParams& params) {
  return std::make_unique<DpGauss1>(params);
}

FieldTable<DuglerBaselineParams> dp_gauss_1_fields() {
  return dugler_baseline_fields(false,
                                "corrected: noise for the sensitivity of the chosen neighbour notion (sqrt(2) beta^2 "
                                "for replace-one, beta^2 for add/remove); faithful: Delta_1 for sensitivity beta^2 as "
                                "printed, whose claim under replace-one is the exactly computed, larger eps");
}

AlgorithmEntry dp_gauss_1_entry() {
  AlgorithmEntry e;
  e.id = kId;
  e.summary = "DP-Gauss-1: Analyze Gauss on the trace-clipped sum of the A_i, top-k eigenvectors";
  e.source =
      "Dügler & Sanyal 2026, §3.1 and App. F (spec dugler2026 §2.9, §7 F.1); Dwork, Talwar, Thakurta, "
      "Zhang 2014, Alg. 1";
  e.needs = DataNeed::psd_samples;  // records, or F.1's matrices C + z z^T (dugler_shifted)
  e.oracle_quantities = {"lambda1", "sigma2"};
  e.privacy =
      "(eps, delta)-DP worst case for the chosen neighbours (trace clipping with a radius fixed in "
      "advance); faithful mode under replace-one: the exact eps of the printed noise, reported in the claim";
  return with_parameters(std::move(e), dp_gauss_1_fields(),
                         [](const DuglerBaselineParams& q) { return make_dp_gauss_1(q); });
}

}  // namespace dpb::alg::baselines
