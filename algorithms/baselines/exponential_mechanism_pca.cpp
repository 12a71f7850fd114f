#include "algorithms/baselines/exponential_mechanism_pca.hpp"

#include <fmt/format.h>

#include "algorithms/baselines/analyze_gauss.hpp"
#include "algorithms/baselines/trace_clipping.hpp"
#include "algorithms/mechanisms/bingham.hpp"
#include "algorithms/privacy.hpp"
#include "core/errors.hpp"

namespace dpb::alg::baselines {
namespace {

constexpr const char* kId = "baseline.exponential_mechanism_pca";

class ExponentialMechanismPca final : public Estimator {
 public:
  explicit ExponentialMechanismPca(double beta) : beta_(beta) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    const PsdSamples data = PsdSamples::from(in, kId);
    validate(in.privacy);
    if (in.k != 1)
      throw InvalidArgument(fmt::format(
          "{}: samples one direction (k = 1); the k > 1 version needs the matrix Bingham, got k = {}", kId, in.k));
    Estimate out;
    out.diagnostics.counters["beta"] = beta_;
    const double inverse_temperature = exponential_mechanism_inverse_temperature(beta_, in.privacy.epsilon);
    const Eigen::MatrixXd S = exponential_mechanism_scores(data, beta_, out.diagnostics);
    // Every clipped summand is PSD with trace <= beta^2, so the change of S has spectral norm <= beta^2 for a
    // replaced (eigenvalues in [-beta^2, beta^2]), added or removed record: the score sensitivity.
    const BinghamDraw draw =
        sphere_exponential_mechanism(S, inverse_temperature, beta_ * beta_, in.privacy,
                                     "exponential mechanism on the sphere, score v^T S v", out.ledger, rng);
    out.Q = Eigen::MatrixXd(draw.x);
    out.diagnostics.counters["proposals"] = static_cast<double>(draw.proposals);
    out.claim = claim(in);
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    validate(in.privacy);
    return {in.privacy.epsilon,
            0.0,
            in.privacy.neighbours,
            ClaimScope::worst_case,
            {"records clipped to ||x|| <= beta with beta fixed in advance: the score v^T S v moves by at most "
             "beta^2 for one replaced, added or removed record (exponential mechanism, McSherry-Talwar 2007)"}};
  }

 private:
  double beta_;
};

}  // namespace

Eigen::MatrixXd exponential_mechanism_scores(const PsdSamples& data, double beta, Diagnostics& diagnostics) {
  if (!(beta > 0)) throw InvalidArgument(fmt::format("{}: beta must be > 0, got {}", kId, beta));
  // Trace clipping (for A_i = x x^T it is l2 clipping of x) leaves every summand PSD with trace <= beta^2,
  // so v^T A_i v lies in [0, beta^2] for every unit v: the score's sensitivity is beta^2.
  return data.weighted_sum(trace_clip_weights(data, beta, diagnostics));
}

double exponential_mechanism_inverse_temperature(double beta, double epsilon) {
  if (!(beta > 0)) throw InvalidArgument(fmt::format("{}: beta must be > 0, got {}", kId, beta));
  validate_epsilon(epsilon, kId);
  // The exponential mechanism samples from exp(eps q(v) / (2 Delta_q)), Delta_q = beta^2.
  return epsilon / (2 * beta * beta);
}

AlgorithmEntry exponential_mechanism_pca_entry() {
  AlgorithmEntry e;
  e.id = kId;
  e.summary = "Exponential-mechanism PCA: the top direction v ~ exp(eps v^T S v / (2 beta^2)), pure eps-DP";
  e.source =
      "Chaudhuri, Sarwate, Sinha 2013 (PPCA), cited by liu2022 §1 [14]; sampled exactly with Kent, Ganeiber, "
      "Mardia 2018's angular central Gaussian envelope";
  struct Params {
    double beta = 0;  // no default: a pure-DP release has no data-derived clip radius
  };
  FieldTable<Params> fields;
  fields.real("beta", &Params::beta, 0.0, std::nullopt,
              "clip radius fixed in advance, required (> 0): records are scaled to ||x|| <= beta",
              "Chaudhuri et al. 2013 §3");
  e.needs = DataNeed::vectors;
  e.privacy = "(eps, 0)-DP worst case for replace-one and add/remove neighbours (clip radius fixed in advance)";
  return with_parameters(std::move(e), fields, [](const Params& q) -> std::unique_ptr<Estimator> {
    if (!(q.beta > 0))
      throw InvalidArgument(fmt::format(
          "{}: give beta > 0, the clip radius fixed in advance (a pure-DP release has no data-derived default)",
          kId));
    return std::make_unique<ExponentialMechanismPca>(q.beta);
  });
}

}  // namespace dpb::alg::baselines
