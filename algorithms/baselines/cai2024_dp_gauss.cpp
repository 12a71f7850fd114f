#include "algorithms/baselines/cai2024_dp_gauss.hpp"

#include <fmt/format.h>
#include <cmath>
#include <limits>

#include "algorithms/baselines/analyze_gauss.hpp"
#include "algorithms/baselines/psd_samples.hpp"
#include "core/errors.hpp"

namespace dpb::alg::baselines {
namespace {

constexpr const char* kDpGaussId = "baseline.dp_gauss";
// The default that delivers the budget asked for under replace-one; the paper's kappa = 1 stays a mode.
enum class ScaleRule {
  model_bound,  // DP-Gauss:  s = (r + C5 log n) lambda + p sigma^2, or `scale` when given
  max_norm,     // DP-Gauss*: s = max_i ||X_i||^2
};

struct CaiDpGaussParams {
  ScaleRule rule = ScaleRule::model_bound;
  double log_multiplier = 4;  // C5
  double scale = 0;           // 0: from the oracle
  bool clip = false;
  bool as_printed = false;  // mode = faithful: kappa = 1 (sensitivity 1/n, add/remove) whatever the neighbours
  bool noise_floor = true;  // covariance: add sigma^2 (I - V V^T)
  GaussianCalibration calibration = kAnalyzeGaussCalibration;
};

class CaiDpGauss final : public Estimator {
 public:
  CaiDpGauss(std::string id, CaiDpGaussParams p, SecondMomentRelease release)
      : id_(std::move(id)), p_(p), release_(std::move(release)) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    if (!in.X)
      throw InvalidArgument(fmt::format("{}: needs vector data (Input::X, p x n, samples as columns)", id_));
    const PsdSamples data = PsdSamples::from(in, id_);
    require_gaussian_privacy(in.privacy, id_);
    require_rank(in.k, data.d(), id_, "r eigenvectors of a p x p matrix");
    const Eigen::Index n = data.n(), p = data.d();
    const double nn = static_cast<double>(n);
    const Eigen::VectorXd norms2 = data.vectors().colwise().squaredNorm().transpose();
    // Global scaling (spec: cai2024 §2.8): Xs_i = X_i / sqrt(s).
    const double s = p_.rule == ScaleRule::max_norm ? norms2.maxCoeff() : model_scale(in, n, p);
    if (!(s > 0))
      throw InvalidArgument(fmt::format("{}: the scale s must be > 0 (all samples are zero?)", id_));
    Estimate out;
    out.diagnostics.counters["scale"] = s;
    // A = (1/n) sum_i c_i Xs_i Xs_i^T with c_i = 1, or min{1, s/||X_i||^2} when clipping (||Xs_i|| <= 1).
    Eigen::VectorXd c(n);
    long exceeding = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      exceeding += norms2[i] > s;
      c[i] = (p_.clip && norms2[i] > s ? s / norms2[i] : 1.0) / (nn * s);
    }
    out.diagnostics.count("exceeding_scale", static_cast<double>(exceeding));
    out.diagnostics.count("clipped", p_.clip ? static_cast<double>(exceeding) : 0.0);
    if (exceeding > 0 && !p_.clip && p_.rule == ScaleRule::model_bound)
      out.diagnostics.notes.push_back(
          fmt::format("{} sample(s) have ||X_i||^2 > s: the sensitivity bound, and so the privacy claim, "
                      "fails on this data",
                      exceeding));
    const Eigen::MatrixXd A = data.weighted_sum(c);
    if (p_.rule == ScaleRule::max_norm)
      // s scales the released eigenvalues and was read off the data without noise (cai2024 §6).
      out.ledger.record(exact_entry("DP-Gauss* scale s = max_i ||X_i||^2, unprivatised",
                                    std::numeric_limits<double>::infinity(), in.privacy.neighbours));
    // N symmetric, iid N(0, tau^2) on i <= j, tau = kappa sqrt(2 log(1.25/delta)) / (n eps) (classical);
    // Vr = top-r eigenvectors of A + N.
    const double tau = gaussian_sigma(p_.calibration, sensitivity(in.privacy.neighbours) / nn,
                                      in.privacy.epsilon, in.privacy.delta);
    out.diagnostics.counters["noise_sd"] = tau;
    // Each c_i Xs_i Xs_i^T is PSD with trace <= 1/n (clipped, or under the model's ||X_i||^2 <= s), so the
    // true sensitivity is psd_sum_sensitivity(1)/n whatever kappa the noise was calibrated to.
    const LedgerEntry release =
        gaussian_entry("Analyze-Gauss release of the scaled second moment",
                       psd_sum_sensitivity(1.0, in.privacy.neighbours) / nn, tau, in.privacy);
    const core::EigenPairs top = core::top_eigenpairs(release_(A, release, in, out.ledger, rng), in.k);
    out.Q = top.vectors;
    // Covariance [inferred, cai2024 A13]: s Vr D_r Vr^T, plus sigma^2 (I - Vr Vr^T) by default.
    out.eigenvalues = s * top.values;
    Eigen::MatrixXd Sigma = top.vectors * out.eigenvalues->asDiagonal() * top.vectors.transpose();
    if (p_.noise_floor) {
      const double sigma2 = oracle_value(in, "sigma2", id_, "covariance=rank_r");
      Sigma += sigma2 * (Eigen::MatrixXd::Identity(p, p) - top.vectors * top.vectors.transpose());
    }
    out.Sigma = std::move(Sigma);
    out.claim = claim(in);
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    require_gaussian_privacy(in.privacy, id_);
    if (p_.rule == ScaleRule::max_norm)
      return not_private_claim(in.privacy,
                               {"DP-Gauss*: the scaling s = max_i ||X_i||^2 is data-dependent and not "
                                "privatised (cai2024 §6); benchmark only"});
    const double sd = gaussian_sigma(p_.calibration, sensitivity(in.privacy.neighbours), in.privacy.epsilon,
                                     in.privacy.delta);
    std::vector<std::string> conditions;
    if (p_.calibration == GaussianCalibration::classical)
      conditions.push_back("eps < 1 (classical Gaussian calibration)");
    PrivacyClaim claim = gaussian_release_claim(
        in.privacy, sd, psd_sum_sensitivity(1.0, in.privacy.neighbours), std::move(conditions));
    if (p_.clip) {
      claim.conditions.insert(claim.conditions.begin(),
                              "every sample clipped to ||X_i||^2 <= s with s fixed before seeing the data");
    } else {
      claim.scope = ClaimScope::under_model_assumptions;
      claim.conditions.insert(
          claim.conditions.begin(),
          "no clipping: needs ||X_i||^2 <= s = (r + C5 log n) lambda + p sigma^2 for every "
          "sample, which holds only with high probability under the spiked Gaussian model "
          "(cai2024 Lemma 8)");
    }
    return claim;
  }

 private:
  // (r + C5 log n) lambda + p sigma^2 from the oracle, or the `scale` parameter.
  double model_scale(const Input& in, Eigen::Index n, Eigen::Index p) const {
    if (p_.scale > 0) return p_.scale;
    const char* alt = "scale (a public bound on max_i ||X_i||^2) explicitly";
    const double r = oracle_value(in, "r", id_, alt), lambda = oracle_value(in, "lambda", id_, alt);
    const double sigma2 = oracle_value(in, "sigma2", id_, alt);
    return (r + p_.log_multiplier * std::log(static_cast<double>(n))) * lambda +
           static_cast<double>(p) * sigma2;
  }
  // Sensitivity of sum_i Xs_i Xs_i^T with ||Xs_i|| <= 1: kappa = 1 as printed, else by the neighbour notion.
  double sensitivity(Neighbours neighbours) const {
    return p_.as_printed ? 1.0 : psd_sum_sensitivity(1.0, neighbours);
  }

  std::string id_;
  CaiDpGaussParams p_;
  SecondMomentRelease release_;
};

Eigen::MatrixXd analyze_gauss_second_moment(const Eigen::MatrixXd& A, const LedgerEntry& release,
                                            const Input&, Ledger& ledger, core::Rng& rng) {
  return analyze_gauss_release(A, release, ledger, rng);
}

// calibration, mode and covariance: what DP-Gauss and DP-Gauss* share.
FieldTable<CaiDpGaussParams> common_fields() {
  using P = CaiDpGaussParams;
  FieldTable<P> t;
  analyze_gauss_calibration_field(t, &P::calibration, "cai2024 §2.1 (classical), §8.1 item 2")
      .choice("mode", &P::as_printed, {{"faithful", true}, {"corrected", false}},
              "corrected: sensitivity sqrt(2)/n for replace-one (1/n for add/remove), the claim is (eps, delta); "
              "faithful: kappa/n with kappa = 1 as in Analyze Gauss and the paper's experiments (exact for "
              "add/remove; under replace-one the claim reports the larger eps it achieves)",
              "cai2024 §2.8, A13 (the spec recommends faithful; docs/papers/cai2024-baselines.md)")
      .choice("covariance", &P::noise_floor, {{"plus_noise_floor", true}, {"rank_r", false}},
              "covariance output: s Vr D_r Vr^T plus sigma^2 (I - Vr Vr^T) (sigma2 from the oracle) or the rank-r "
              "part only",
              "cai2024 §2.8, A13 [inferred]");
  return t;
}

FieldTable<CaiDpGaussParams> dp_gauss_fields() {
  using P = CaiDpGaussParams;
  FieldTable<P> t = common_fields();
  t.real("log_multiplier", &P::log_multiplier, 0.0, std::nullopt,
         "C5 in s = (r + C5 log n) lambda + p sigma^2 (the paper's simulations: 4)", "cai2024 §2.8, §6")
      .real("scale", &P::scale, 0.0, std::nullopt,
            "the scaling s given explicitly (a public bound on max ||X_i||^2); 0 derives it from the oracle's r, "
            "lambda, sigma2",
            "cai2024 §2.8")
      .choice("clip", &P::clip, {{"off", false}, {"on", true}},
              "clip ||Xs_i|| to 1 after scaling (off as in the paper: private only w.h.p. under the model; on: "
              "worst-case DP)",
              "cai2024 §2.8, A13");
  return t;
}

// DP-Gauss with its scale from the model bound (or the given scale), releasing through `release`.
std::unique_ptr<Estimator> dp_gauss(CaiDpGaussParams q, SecondMomentRelease release) {
  q.rule = ScaleRule::model_bound;
  return std::make_unique<CaiDpGauss>(kDpGaussId, q, std::move(release));
}

}  // namespace

AlgorithmEntry cai2024_dp_gauss_entry() {
  AlgorithmEntry e;
  e.id = kDpGaussId;
  e.summary =
      "DP-Gauss: Analyze Gauss on Shat / s, s = (r + C5 log n) lambda + p sigma^2, top-r eigenvectors";
  e.source = "Cai, Xia, Zha 2024, §6 (spec cai2024 §2.8, §6); Dwork, Talwar, Thakurta, Zhang 2014";
  e.needs = DataNeed::vectors;
  e.oracle_quantities = {"r", "lambda", "sigma2"};
  e.privacy =
      "clip=off (default, as in the paper): (eps, delta)-DP only with high probability under the spiked "
      "Gaussian model (max ||X_i||^2 <= s); clip=on: worst case";
  return with_parameters(std::move(e), dp_gauss_fields(),
                         [](const CaiDpGaussParams& q) { return dp_gauss(q, analyze_gauss_second_moment); });
}

AlgorithmEntry cai2024_dp_gauss_star_entry() {
  const std::string id = "baseline.dp_gauss_star";
  AlgorithmEntry e;
  e.id = id;
  e.summary = "DP-Gauss*: Analyze Gauss on Shat / max_i ||X_i||^2; NOT differentially private (benchmark)";
  e.source = "Cai, Xia, Zha 2024, §6 (spec cai2024 §2.8, §6)";
  e.needs = DataNeed::vectors;
  e.oracle_quantities = {"sigma2"};
  e.privacy =
      "NOT differentially private: the scale max_i ||X_i||^2 is data-dependent and unprivatised; "
      "benchmark only";
  return with_parameters(std::move(e), common_fields(), [id](CaiDpGaussParams q) -> std::unique_ptr<Estimator> {
    q.rule = ScaleRule::max_norm;
    return std::make_unique<CaiDpGauss>(id, q, analyze_gauss_second_moment);
  });
}

std::unique_ptr<Estimator> make_cai2024_dp_gauss(const core::ParamMap& params, SecondMomentRelease release) {
  return dp_gauss(dp_gauss_fields().read(params, kDpGaussId), std::move(release));
}

}  // namespace dpb::alg::baselines
