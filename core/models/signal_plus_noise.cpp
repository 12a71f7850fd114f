#include "core/models/signal_plus_noise.hpp"

#include <cmath>

#include "core/memory.hpp"
#include "core/models/support.hpp"
#include "core/samplers.hpp"

namespace dpb::core {

using namespace model_support;

SignedSpikePlusNoise::SignedSpikePlusNoise(const std::string& id, const Eigen::VectorXd& v, double amplitude,
                                           double sigma)
    : info_(low_rank_plus_identity_info(id, v, Eigen::VectorXd::Constant(1, amplitude * amplitude),
                                        sigma * sigma)),
      v_(v),
      amplitude_(amplitude),
      sigma_(sigma) {
  // spec: liu2022 §4.5 [computed] gives V and gamma^2 for a = 1; the law scales with a, so they depend
  // on t = sigma^2 / a^2 only: lambda1^2 V = a^4 ((d+3) t + (d+1) t^2), gamma^2 max at u = +-v.
  const double d = static_cast<double>(v.size()), t = sigma * sigma / (amplitude * amplitude);
  info_.V = ((d + 3) * t + (d + 1) * t * t) / ((1 + t) * (1 + t));
  info_.gamma2 = t * (4 + 2 * t) / ((1 + t) * (1 + t));
  info_.params["amplitude"] = amplitude;
  info_.params["sigma"] = sigma;
  info_.params["sigma2"] = sigma * sigma;
  publish_closed_forms(info_);
}

Eigen::MatrixXd SignedSpikePlusNoise::sample(Eigen::Index n, Rng& rng) const {
  require_sample_count(n, info_.model);
  Eigen::MatrixXd X(v_.size(), n);
  advise_huge_pages(X.data(), sizeof(double) * static_cast<std::size_t>(X.size()));
  // Draw order, per sample: the sign s, then the d entries of g. Each entry is written once (sigma g_j, then
  // plus s a v_j, rounded as two steps): a store and a wider reload per sample would stall at small d.
  for (Eigen::Index i = 0; i < n; ++i) {
    const double signal = rademacher(rng) * amplitude_;
    double* x = X.col(i).data();
    for (Eigen::Index j = 0; j < X.rows(); ++j) {
      const double noise = sigma_ * standard_normal(rng);
      x[j] = noise + signal * v_[j];
    }
  }
  return X;
}

ModelEntry signal_plus_noise_entry() {
  const std::string id = "signal_plus_noise";
  return {
      id,
      "Example 4.1: x = s v + sigma g, s = +-1, v uniform on the sphere; Sigma = v v^T + sigma2 I",
      "Liu, Kong, Jain, Oh 2022, Example 4.1 (liu2022 spec §4.5, §7.2)",
      {{"d", "10", "dimension (>= 2)"},
       {"p", "= d", "alias of d"},
       {"sigma2", "0.1", "noise variance sigma^2 > 0 (the paper assumes sigma^2 < 1; any value is allowed)"}},
      [id](const ParamMap& params, Rng& rng) -> std::unique_ptr<Model> {
        params.require_known({"d", "p", "sigma2"}, id);
        const Eigen::Index d = read_dimension(params, 10, id);
        const double sigma2 = read_positive(params, "sigma2", 0.1, id);
        return std::make_unique<SignedSpikePlusNoise>(id, unit_sphere(rng, d), 1.0, std::sqrt(sigma2));
      }};
}

}  // namespace dpb::core
