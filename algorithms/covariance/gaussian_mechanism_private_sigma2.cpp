#include "algorithms/covariance/gaussian_mechanism_private_sigma2.hpp"

#include <fmt/format.h>

#include "algorithms/covariance/spiked_inputs.hpp"
#include "algorithms/covariance/spiked_sensitivities.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kId = "cai2024.gaussian_mechanism_private_sigma2";

class GaussianMechanismPrivateSigma2 final : public Estimator {
 public:
  explicit GaussianMechanismPrivateSigma2(PrivateSigma2Params params) : params_(params) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    const Eigen::MatrixXd& X = require_samples(in, kId);
    const Eigen::Index p = X.rows(), n = X.cols(), r = in.k;
    require_spike_rank(r, p, kId);
    const SpikedQuantities q = spiked_quantities(params_.mechanism.lambda, params_.mechanism.sigma2, in, kId);
    const double lambda = q.lambda.value;
    const Budget third{in.privacy.epsilon / 3, in.privacy.delta / 3};
    const Budget per_release = params_.faithful_split ? Budget{third.epsilon / 2, third.delta / 2} : third;
    const GaussianCalibration calibration = params_.mechanism.calibration;

    // Step 1: Shat = (1/n) sum X_i X_i^T by a rank update, and its spectrum.
    const Eigen::MatrixXd Shat = core::second_moment(X);

    // §5.3: sigmatil^2 = |sigmahat^2 + N(0, 18 (Delta3/eps)^2 log(3.75/delta))|, (eps/3, delta/3)-DP.
    const double Delta3 = noise_variance_sensitivity({n, p, r, lambda, q.sigma2.value}, params_.variance.C4);
    const BulkQuantiles weights =
        bulk_quantiles(p, n, params_.variance.range, params_.variance.quadrature_tolerance);
    Estimate out;
    const NoiseVarianceRelease variance =
        private_noise_variance(core::descending_eigenvalues(Shat), weights, params_.variance.shift_by_rank ? r : 0,
                               spiked_release("sigmatil^2: Gaussian mechanism on the bulk estimator (§5.3)",
                                              Delta3, third, calibration, kId),
                               out.ledger, rng);

    // Steps 2-4 of Algorithm 1 with sigma^2 <- sigmatil^2 (and the inflated plug-in in Delta1, Delta2).
    const SpikedSizes plug_in{n, p, r, lambda, params_.sigma2_inflation * variance.value};
    const AlgorithmOneSensitivities delta = algorithm_one_sensitivities(params_.mechanism, plug_in);
    GaussianMechanismSettings settings;
    settings.r = r;
    settings.sigma2 = variance.value;
    // sigmatil^2 is released, so the plug-in sensitivities are public.
    settings.projector = spiked_release(settings.projector.step, delta.Delta1, per_release, calibration, kId);
    settings.eigenvalue =
        spiked_release(settings.eigenvalue.step, delta.Delta2, per_release, calibration, kId);
    settings.selection = params_.mechanism.selection;
    settings.psd_projection = params_.mechanism.psd_projection;
    const GaussianMechanismRelease release = gaussian_mechanism_release(Shat, settings, out.ledger, rng);

    fill_estimate(out, release, variance.value);
    out.scalar = variance.value;
    out.scalar_estimand = std::string("sigma2");
    auto& d = out.diagnostics;
    d.counters["Delta1"] = delta.Delta1;
    d.counters["Delta2"] = delta.Delta2;
    d.counters["Delta3"] = Delta3;
    d.counters["sigma2_private"] = variance.value;
    d.counters["sigma2_noise_sd"] = variance.noise_sd;
    d.counters["projector_noise_sd"] = settings.projector.noise_scale;
    d.counters["eigenvalue_noise_sd"] = settings.eigenvalue.noise_scale;
    if (params_.faithful_split)
      d.notes.push_back(
          "budget_split=faithful: Algorithm 1 ran at (eps/3, delta/3), so only 2/3 of the budget is spent");
    finish_estimate(out, q.any_from_oracle(), claim(in));
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    return cai2024_claim(
        in, params_.faithful_split ? 2.0 / 3.0 : 1.0,
        fmt::format(
            "budget in thirds (spec: cai2024 A6){}; Delta1, Delta2 with C2 = {:g}, C3 = {:g}, C5 = {:g} and "
            "sigma^2 <- {:g} * sigmatil^2; Delta3 with C4 = {:g}",
            params_.faithful_split ? ", Algorithm 1 itself at (eps/3, delta/3) (faithful)" : "",
            params_.mechanism.C2, params_.mechanism.C3, params_.mechanism.C5, params_.sigma2_inflation,
            params_.variance.C4) +
            "; cai2024 Thm 5.2: bounded r, p/n -> gamma in (0, inf), 0.9 sigma^2 <= sigmatil^2 <= 1.1 "
            "sigma^2 w.h.p.",
        params_.mechanism.calibration, params_.mechanism.lambda <= 0 || params_.mechanism.sigma2 <= 0);
  }

 private:
  PrivateSigma2Params params_;
};

}  // namespace

std::unique_ptr<Estimator> make_gaussian_mechanism_private_sigma2(PrivateSigma2Params params) {
  return std::make_unique<GaussianMechanismPrivateSigma2>(std::move(params));
}

}  // namespace dpb::alg
