#include "algorithms/covariance/private_rank.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/covariance/private_noise_variance.hpp"
#include "algorithms/covariance/spiked_sensitivities.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kId = "cai2024.private_rank";

class PrivateRank final : public Estimator {
 public:
  explicit PrivateRank(PrivateRankParams params) : params_(params) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    const Eigen::MatrixXd& X = require_samples(in, kId);
    const Eigen::Index p = X.rows(), n = X.cols(), R = params_.R;
    if (R > std::min(n, p - 1))
      throw InvalidArgument(
          fmt::format("{}: R must satisfy 1 <= R <= min(n, p - 1) (R + 1 eigenvalues are compared), "
                      "got R = {}, n = {}, p = {}",
                      kId, R, n, p));
    const SpikedQuantities q = spiked_quantities(params_.lambda, params_.sigma2, in, kId);
    // spec: cai2024 A7: Delta2 with R in place of the unknown r.
    const double Delta2 = eigenvalue_sensitivity({n, p, R, q.lambda.value, q.sigma2.value}, params_.C3);
    // The vector of the R + 1 top eigenvalues moves by at most ||Shat - Shat'||_F <= Delta2
    // (Hoffman–Wielandt).
    const LedgerEntry noisy_eigenvalues =
        spiked_release("noisy eigenvalues lambda_1..lambda_{R+1} (cai2024 §7.1)", Delta2,
                       {in.privacy.epsilon, in.privacy.delta}, params_.calibration, kId);
    const double sd = noisy_eigenvalues.noise_scale;

    Estimate out;
    const RankRelease release =
        private_rank(core::descending_eigenvalues(core::second_moment(X)), R, noisy_eigenvalues, out.ledger, rng);
    out.scalar = static_cast<double>(release.rank);
    out.scalar_estimand = std::string("r");
    auto& d = out.diagnostics;
    d.counters["Delta2"] = Delta2;
    d.counters["noise_sd"] = sd;
    d.counters["guarded_ratios"] = release.guarded;
    d.counters["fallback"] = release.fallback ? 1 : 0;
    if (release.fallback)
      d.notes.push_back("every noisy eigen-ratio had a non-positive denominator: fallback rhat = 1");
    finish_estimate(out, q.any_from_oracle(), claim(in));
    return out;
  }

  PrivacyClaim claim(const Input& in) const override {
    return cai2024_claim(
        in, 1.0,
        fmt::format("Delta2 = C3 (l (R + log n) + s2 (p + log n))/n with C3 = {:g}, R = {} in place "
                    "of r (spec: cai2024 A7); requires r <= R",
                    params_.C3, params_.R),
        params_.calibration, params_.lambda <= 0 || params_.sigma2 <= 0);
  }

 private:
  PrivateRankParams params_;
};

}  // namespace

RankRelease private_rank(const Eigen::VectorXd& eig, Eigen::Index R, const LedgerEntry& release,
                         Ledger& ledger, core::Rng& rng) {
  if (R < 1 || eig.size() < R + 1)
    throw InvalidArgument(
        fmt::format("private_rank: needs R >= 1 and R + 1 eigenvalues, got R = {} and {}", R, eig.size()));
  if (!(std::isfinite(release.noise_scale) && release.noise_scale >= 0))
    throw InvalidArgument(
        fmt::format("private_rank: noise sd must be finite and >= 0, got {}", release.noise_scale));
  RankRelease out;
  // lambda_k(Shat) + Z_k for k = 1..R+1 (spec: cai2024 A7: Z_{R+1} is needed too).
  out.noisy = eig.head(R + 1);
  gaussian_mechanism(out.noisy, release, ledger, rng);
  // argmax over k = 1..R of the ratio; a non-positive denominator counts as -inf (spec: cai2024 §2.5).
  double best = -std::numeric_limits<double>::infinity();
  for (Eigen::Index k = 0; k < R; ++k) {
    if (!(out.noisy[k + 1] > 0)) {
      ++out.guarded;
      continue;
    }
    const double ratio = out.noisy[k] / out.noisy[k + 1];
    if (ratio > best) {
      best = ratio;
      out.rank = k + 1;
    }
  }
  out.fallback = out.guarded == R;
  return out;
}

std::unique_ptr<Estimator> make_private_rank(PrivateRankParams params) {
  return std::make_unique<PrivateRank>(std::move(params));
}

}  // namespace dpb::alg
