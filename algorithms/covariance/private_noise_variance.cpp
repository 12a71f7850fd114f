#include "algorithms/covariance/private_noise_variance.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "algorithms/covariance/marchenko_pastur.hpp"
#include "algorithms/covariance/spiked_sensitivities.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kId = "cai2024.private_noise_variance";

class PrivateNoiseVariance final : public Estimator {
 public:
  explicit PrivateNoiseVariance(NoiseVarianceParams params) : params_(params) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    const Eigen::MatrixXd& X = require_samples(in, kId);
    const Eigen::Index p = X.rows(), n = X.cols(), r = in.k;
    if (r < 1 || r > std::min(p, n))
      throw InvalidArgument(
          fmt::format("{}: the rank r = Input.k must satisfy 1 <= r <= p ∧ n, got r = {}", kId, r));
    const SpikedQuantities q = spiked_quantities(params_.lambda, params_.sigma2, in, kId);
    const double Delta3 = noise_variance_sensitivity({n, p, r, q.lambda.value, q.sigma2.value}, params_.C4);
    const LedgerEntry noisy_variance =
        spiked_release("sigmatil^2: Gaussian mechanism on sigmahat^2 (cai2024 §5.3)", Delta3,
                       {in.privacy.epsilon, in.privacy.delta}, params_.calibration, kId);
    const double sd = noisy_variance.noise_scale;

    const BulkQuantiles weights = bulk_quantiles(p, n, params_.range, params_.quadrature_tolerance);
    Estimate out;
    const NoiseVarianceRelease release =
        private_noise_variance(core::descending_eigenvalues(core::second_moment(X)), weights,
                               params_.shift_by_rank ? r : 0, noisy_variance, out.ledger, rng);
    out.scalar = release.value;
    out.scalar_estimand = std::string("sigma2");
    auto& d = out.diagnostics;
    d.counters["Delta3"] = Delta3;
    d.counters["noise_sd"] = sd;
    d.counters["bulk_indices"] = static_cast<double>(weights.q.size());
    d.counters["absolute_value_flipped_sign"] = release.noisy < 0 ? 1 : 0;
    finish_estimate(out, q.any_from_oracle(), claim(in));
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    return cai2024_claim(
        in, 1.0,
        fmt::format("Delta3 = (C4/sqrt(p∧n)) (l (r + log n) + s2 (p + log n))/n with C4 = {:g} "
                    "(cai2024 Thm 5.1: bounded r, p/n -> gamma in (0, inf))",
                    params_.C4),
        params_.calibration, params_.lambda <= 0 || params_.sigma2 <= 0);
  }

 private:
  NoiseVarianceParams params_;
};

}  // namespace

BulkQuantiles bulk_quantiles(Eigen::Index p, Eigen::Index n, BulkRange range, double tolerance) {
  const Eigen::Index m = std::min(p, n);
  const double quarter = static_cast<double>(m) / 4, three_quarters = 3.0 * static_cast<double>(m) / 4;
  Eigen::Index first =
      static_cast<Eigen::Index>(range == BulkRange::inner ? std::ceil(quarter) : std::floor(quarter));
  const Eigen::Index last = static_cast<Eigen::Index>(range == BulkRange::inner ? std::floor(three_quarters)
                                                                                : std::ceil(three_quarters));
  first = std::max<Eigen::Index>(first, 1);
  if (m < 2 || last < first)
    throw InvalidArgument(
        fmt::format("cai2024 sigma^2 estimator: needs p ∧ n >= 2 so that the bulk index range K is not "
                    "empty, got p = {}, n = {}",
                    p, n));
  const MarchenkoPastur law(static_cast<double>(p) / static_cast<double>(n), tolerance);  // gamma_n = p/n
  BulkQuantiles out{first, Eigen::VectorXd(last - first + 1)};
  for (Eigen::Index j = 0; j < out.q.size(); ++j)
    out.q[j] = law.upper_quantile(static_cast<double>(first + j) / static_cast<double>(m));
  return out;
}

double bulk_noise_variance(const Eigen::VectorXd& eig, const BulkQuantiles& w, Eigen::Index shift) {
  const Eigen::Index last = w.first + w.q.size() - 1 + shift;  // 1-based index of the last eigenvalue used
  if (shift < 0 || last > eig.size())
    throw InvalidArgument(
        fmt::format("cai2024 sigma^2 estimator: needs eigenvalues up to index {}, got {}", last, eig.size()));
  // sum_{k in K} q_k lambda_{k + shift} / sum_{k in K} q_k^2 (eigenvalues are 1-based in the paper).
  return w.q.dot(eig.segment(w.first - 1 + shift, w.q.size())) / w.q.squaredNorm();
}

NoiseVarianceRelease private_noise_variance(const Eigen::VectorXd& eig, const BulkQuantiles& w,
                                            Eigen::Index shift, const LedgerEntry& release, Ledger& ledger,
                                            core::Rng& rng) {
  if (!(std::isfinite(release.noise_scale) && release.noise_scale >= 0))
    throw InvalidArgument(fmt::format("cai2024 sigma^2 estimator: noise sd must be finite and >= 0, got {}",
                                      release.noise_scale));
  NoiseVarianceRelease out;
  out.noise_sd = release.noise_scale;
  out.nonprivate = bulk_noise_variance(eig, w, shift);
  out.noisy = out.nonprivate;
  gaussian_mechanism(Eigen::Map<Eigen::MatrixXd>(&out.noisy, 1, 1), release, ledger, rng);
  out.value = std::abs(out.noisy);  // post-processing (cai2024 §5.3)
  return out;
}

std::unique_ptr<Estimator> make_private_noise_variance(NoiseVarianceParams params) {
  return std::make_unique<PrivateNoiseVariance>(std::move(params));
}

}  // namespace dpb::alg
