#include "algorithms/covariance/private_spike.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "algorithms/covariance/gaussian_mechanism_pca.hpp"
#include "algorithms/covariance/private_noise_variance.hpp"
#include "algorithms/covariance/spiked_sensitivities.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kId = "cai2024.private_spike";

class PrivateSpike final : public Estimator {
 public:
  explicit PrivateSpike(PrivateSpikeParams params) : params_(params) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    const Eigen::MatrixXd& X = require_samples(in, kId);
    const Eigen::Index p = X.rows(), n = X.cols(), r = in.k;
    require_spike_rank(r, p, kId);
    const SpikedQuantities q = spiked_quantities(params_.lambda_bound, params_.sigma2, in, kId);
    const double Delta2 = eigenvalue_sensitivity({n, p, r, q.lambda.value, q.sigma2.value}, params_.C3);
    // The vector of the r top eigenvalues moves by at most ||Shat - Shat'||_F <= Delta2 (Hoffman–Wielandt).
    const LedgerEntry noisy_eigenvalues =
        spiked_release("noisy eigenvalues lambda_1..lambda_r (cai2024 §7.2)", Delta2,
                       {in.privacy.epsilon, in.privacy.delta}, params_.calibration, kId);
    const double sd = noisy_eigenvalues.noise_scale;

    Estimate out;
    const SpikeRelease release =
        private_spike(core::descending_eigenvalues(core::second_moment(X)), r,
                      params_.subtract_sigma2 ? q.sigma2.value : 0.0, noisy_eigenvalues, out.ledger, rng);
    out.scalar = release.value;
    // lambda (the spikes' common value; cai2024 §7.2), or lambda + sigma^2 = lambda1 when sigma^2 is not
    // taken off (equal spikes)
    out.scalar_estimand = std::string(params_.subtract_sigma2 ? "lambda" : "lambda1");
    Eigen::VectorXd sorted = release.noisy;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    out.eigenvalues = sorted;
    auto& d = out.diagnostics;
    d.counters["Delta2"] = Delta2;
    d.counters["noise_sd"] = sd;
    if (!params_.subtract_sigma2)
      d.notes.push_back(
          "subtract_sigma2=off: the literal average of the top eigenvalues, which estimates lambda + "
          "sigma^2");
    finish_estimate(out, q.any_from_oracle(), claim(in));
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    return cai2024_claim(
        in, 1.0,
        fmt::format("Delta2 = C3 (l (r + log n) + s2 (p + log n))/n with C3 = {:g} and l a public "
                    "upper bound on lambda (spec: cai2024 §2.6)",
                    params_.C3),
        params_.calibration, params_.lambda_bound <= 0 || params_.sigma2 <= 0);
  }

 private:
  PrivateSpikeParams params_;
};

}  // namespace

SpikeRelease private_spike(const Eigen::VectorXd& eig, Eigen::Index r, double subtracted,
                           const LedgerEntry& release, Ledger& ledger, core::Rng& rng) {
  if (r < 1 || eig.size() < r)
    throw InvalidArgument(
        fmt::format("private_spike: needs r >= 1 and r eigenvalues, got r = {} and {}", r, eig.size()));
  if (!(std::isfinite(release.noise_scale) && release.noise_scale >= 0))
    throw InvalidArgument(
        fmt::format("private_spike: noise sd must be finite and >= 0, got {}", release.noise_scale));
  SpikeRelease out;
  out.noisy = eig.head(r);
  gaussian_mechanism(out.noisy, release, ledger, rng);
  out.value = out.noisy.mean() - subtracted;
  return out;
}

std::unique_ptr<Estimator> make_private_spike(PrivateSpikeParams params) {
  return std::make_unique<PrivateSpike>(std::move(params));
}

}  // namespace dpb::alg
