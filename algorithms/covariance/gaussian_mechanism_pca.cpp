#include "algorithms/covariance/gaussian_mechanism_pca.hpp"

#include <fmt/format.h>
#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kId = "cai2024.gaussian_mechanism";

class GaussianMechanismPca final : public Estimator {
 public:
  explicit GaussianMechanismPca(GaussianMechanismParams params) : params_(params) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    const Eigen::MatrixXd& X = require_samples(in, kId);
    const Eigen::Index p = X.rows(), n = X.cols(), r = in.k;
    require_spike_rank(r, p, kId);
    const SpikedQuantities q = spiked_quantities(params_.lambda, params_.sigma2, in, kId);
    const SpikedSizes sizes{n, p, r, q.lambda.value, q.sigma2.value};
    const double s = params_.pca_share, eps = in.privacy.epsilon, dl = in.privacy.delta;
    const Budget pca_budget{s * eps, s * dl}, eigen_budget{(1 - s) * eps, (1 - s) * dl};
    const AlgorithmOneSensitivities delta = algorithm_one_sensitivities(params_, sizes);

    GaussianMechanismSettings settings;
    settings.r = sizes.r;
    settings.sigma2 = sizes.sigma2;
    settings.projector =
        spiked_release(settings.projector.step, delta.Delta1, pca_budget, params_.calibration, kId);
    settings.eigenvalue =
        spiked_release(settings.eigenvalue.step, delta.Delta2, eigen_budget, params_.calibration, kId);
    settings.selection = params_.selection;
    settings.psd_projection = params_.psd_projection;

    // Step 1: Shat = (1/n) sum X_i X_i^T (no centering), by a rank update.
    const Eigen::MatrixXd Shat = core::second_moment(X);
    Estimate out;
    const GaussianMechanismRelease release = gaussian_mechanism_release(Shat, settings, out.ledger, rng);

    fill_estimate(out, release, sizes.sigma2);
    auto& d = out.diagnostics;
    d.counters["Delta1"] = delta.Delta1;
    d.counters["Delta2"] = delta.Delta2;
    d.counters["projector_noise_sd"] = settings.projector.noise_scale;
    d.counters["eigenvalue_noise_sd"] = settings.eigenvalue.noise_scale;
    d.counters["lambda_used"] = sizes.lambda;
    d.counters["sigma2_used"] = sizes.sigma2;
    finish_estimate(out, q.any_from_oracle(), claim(in));
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    return cai2024_claim(
        in, 1.0,
        fmt::format(
            "Delta1 = C2 (s2/l + sqrt(s2/l)) sqrt(p (r + C5 log n))/n with C2 = {:g}, C5 = {:g}; Delta2 = "
            "C3 (l (r + log n) + s2 (p + log n))/n with C3 = {:g}{}; n >= C1 (r log n + log^2 n), 2r <= p, "
            "lambda/sigma^2 >= C1 (p/n + sqrt(p/n)) (cai2024 Lemma 2)",
            params_.C2, params_.C5, params_.C3,
            params_.Delta1 > 0 || params_.Delta2 > 0 ? " (or the given Delta1/Delta2)" : ""),
        params_.calibration, params_.lambda <= 0 || params_.sigma2 <= 0);
  }

 private:
  GaussianMechanismParams params_;
};

}  // namespace

AlgorithmOneSensitivities algorithm_one_sensitivities(const GaussianMechanismParams& params,
                                                      const SpikedSizes& sizes) {
  return {params.Delta1 > 0 ? params.Delta1 : eigenvector_sensitivity(sizes, params.C2, params.C5),
          params.Delta2 > 0 ? params.Delta2 : eigenvalue_sensitivity(sizes, params.C3)};
}

void require_spike_rank(Eigen::Index r, Eigen::Index p, const char* owner) {
  if (r < 1 || 2 * r > p)
    throw InvalidArgument(fmt::format(
        "{}: the rank r = Input.k must satisfy 1 <= r and 2r <= p (cai2024 (C-r)), got r = {}, p = {}", owner,
        r, p));
}

GaussianMechanismRelease gaussian_mechanism_release(const Eigen::MatrixXd& Shat,
                                                    const GaussianMechanismSettings& s, Ledger& ledger,
                                                    core::Rng& rng) {
  const Eigen::Index p = Shat.rows(), r = s.r;
  if (Shat.cols() != p) throw InvalidArgument("gaussian_mechanism_release: Shat must be square");
  require_spike_rank(r, p, "gaussian_mechanism_release");
  for (const double sd : {s.projector.noise_scale, s.eigenvalue.noise_scale})
    if (!(std::isfinite(sd) && sd >= 0))
      throw InvalidArgument(
          fmt::format("gaussian_mechanism_release: noise scales must be finite and >= 0, got {}", sd));
  if (!(std::isfinite(s.sigma2) && s.sigma2 >= 0))
    throw InvalidArgument(
        fmt::format("gaussian_mechanism_release: sigma2 must be finite and >= 0, got {}", s.sigma2));

  GaussianMechanismRelease out;
  // Step 1 (cont.): Uhat = SVD_r(Shat), the top-r eigenvectors (Shat is PSD).
  const Eigen::MatrixXd Uhat = core::top_eigenpairs(Shat, r).vectors;

  // Step 2: Util = SVD_r(Uhat Uhat^T + Z), Z symmetric with iid N(0, sd^2) entries on and above the
  // diagonal (8 Delta1^2 log(2.5/delta)/eps^2 at the default split). Delta1 bounds ||Uhat Uhat^T - Uhat'
  // Uhat'^T||_F, which bounds the change of the upper triangle.
  out.noisy_projector.noalias() = Uhat * Uhat.transpose();
  symmetric_gaussian_mechanism(out.noisy_projector, s.projector, ledger, rng);
  out.U = core::top_eigenpairs(out.noisy_projector, r, s.selection).vectors;

  // Step 3: Lamtil = Util^T (Shat - sigma^2 I) Util + E, E symmetric r x r with iid N(0, sd^2) entries on
  // and above the diagonal. Util is released, so the change is Util^T (Shat - Shat') Util, of Frobenius
  // norm <= ||Shat - Shat'||_F <= Delta2.
  const Eigen::MatrixXd SU = Shat * out.U;
  Eigen::MatrixXd projected = out.U.transpose() * SU;
  out.Lambda = 0.5 * (projected + projected.transpose());  // exact symmetry (rounding only)
  out.Lambda.diagonal().array() -= s.sigma2;
  symmetric_gaussian_mechanism(out.Lambda, s.eigenvalue, ledger, rng);

  // Optional post-processing (off by default; not in the paper): project Sigmatil onto the PSD cone.
  // Sigmatil's eigenvalues are eig(Lamtil) + sigma^2 and sigma^2, so raising eig(Lamtil) to -sigma^2
  // is the exact Frobenius projection.
  const core::EigenPairs lam = core::symmetric_eigenpairs(out.Lambda);
  Eigen::VectorXd mu = lam.values;
  if (s.psd_projection) {
    for (Eigen::Index k = 0; k < r; ++k)
      if (mu[k] < -s.sigma2) {
        mu[k] = -s.sigma2;
        ++out.psd_clipped;
      }
    if (out.psd_clipped > 0)
      out.Lambda = lam.vectors * mu.asDiagonal() * lam.vectors.transpose();
  }
  out.spike_eigenvalues = mu.reverse();

  // Step 4: Sigmatil = Util Lamtil Util^T + sigma^2 I_p.
  out.Sigma.noalias() = out.U * out.Lambda * out.U.transpose();
  out.Sigma.diagonal().array() += s.sigma2;
  return out;
}

void fill_estimate(Estimate& estimate, const GaussianMechanismRelease& release, double sigma2) {
  estimate.Q = release.U;
  estimate.Sigma = release.Sigma;
  estimate.eigenvalues = release.spike_eigenvalues.array() + sigma2;
  estimate.diagnostics.counters["psd_clipped"] = release.psd_clipped;
}

std::unique_ptr<Estimator> make_gaussian_mechanism_pca(GaussianMechanismParams params) {
  return std::make_unique<GaussianMechanismPca>(std::move(params));
}

}  // namespace dpb::alg
