#include "core/models/heavy_tailed.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/models/support.hpp"
#include "core/samplers.hpp"

namespace dpb::core {

using namespace model_support;

namespace {

ModelEntry heavy_tail_mixture_entry() {
  const std::string id = "heavy_tail_mixture";
  return {
      id,
      "with prob. alpha x = s alpha^(-1/4) v, else x ~ N(0, I); Sigma = sqrt(alpha) v v^T + (1 - alpha) I",
      "Liu, Kong, Jain, Oh 2022, Theorem 5.4 construction, Eq. (25) (liu2022 spec §5.4, §7.3)",
      {{"d", "10", "dimension (>= 2)"},
       {"p", "= d", "alias of d"},
       {"alpha", "0.1",
        "mixture weight in (0, 1]; Thm 5.4 sets it by Eq. (30), see heavy_tail_mixture_alpha(n, d, eps, "
        "delta)"}},
      [id](const ParamMap& params, Rng& rng) -> std::unique_ptr<Model> {
        params.require_known({"d", "p", "alpha"}, id);
        const Eigen::Index d = read_dimension(params, 10, id);
        const double alpha = read_positive(params, "alpha", 0.1, id);
        if (alpha > 1) throw InvalidArgument(fmt::format("{}: 'alpha' must be in (0, 1], got {}", id, alpha));
        // spec: liu2022 §5.4: Q_v uniform on {+-alpha^{-1/4} v}, Q_0 = N(0, I_d).
        return std::make_unique<SpikeOrGaussianMixture>(id, unit_sphere(rng, d), alpha,
                                                        std::pow(alpha, -0.25), 1.0,
                                                        std::map<std::string, double>{{"alpha", alpha}});
      }};
}

ModelEntry fixed_gap_heavy_tail_entry() {
  const std::string id = "fixed_gap_heavy_tail";
  return {id,
          "with prob. p = (1 - lambda2/lambda1)/d x = s sqrt(d lambda1) v, else x ~ N(0, lambda2/(1-p) I); "
          "Sigma = (lambda1 - lambda2) v v^T + lambda2 I",
          "Liu, Kong, Jain, Oh 2022, Theorem C.1 construction, Eq. (34) (liu2022 spec §5.5, §7.4)",
          {{"d", "10", "dimension (>= 2)"},
           {"p", "= d", "alias of d"},
           {"lambda1", "2", "top eigenvalue of Sigma, > lambda2"},
           {"lambda2", "1", "second eigenvalue of Sigma, > 0"}},
          [id](const ParamMap& params, Rng& rng) -> std::unique_ptr<Model> {
            params.require_known({"d", "p", "lambda1", "lambda2"}, id);
            const Eigen::Index d = read_dimension(params, 10, id);
            const double lambda1 = read_positive(params, "lambda1", 2.0, id);
            const double lambda2 = read_positive(params, "lambda2", 1.0, id);
            if (!(lambda1 > lambda2))
              throw InvalidArgument(fmt::format(
                  "{}: need lambda1 > lambda2 > 0, got lambda1 = {}, lambda2 = {}", id, lambda1, lambda2));
            // spec: liu2022 §5.5: the Gaussian variance is lambda2/(1 - p) as in [003] ([000] drops the /d).
            const double p = (1.0 - lambda2 / lambda1) / static_cast<double>(d);
            return std::make_unique<SpikeOrGaussianMixture>(
                id, unit_sphere(rng, d), p, std::sqrt(static_cast<double>(d) * lambda1), lambda2 / (1.0 - p),
                std::map<std::string, double>{});
          }};
}

}  // namespace

SpikeOrGaussianMixture::SpikeOrGaussianMixture(const std::string& id, const Eigen::VectorXd& v, double q,
                                               double c, double tau2,
                                               const std::map<std::string, double>& extra_params)
    : info_(low_rank_plus_identity_info(id, v, Eigen::VectorXd::Constant(1, q * c * c), (1 - q) * tau2)),
      v_(v),
      q_(q),
      c_(c),
      tau_(std::sqrt(tau2)) {
  // [computed] E[|x|^2 x x^T] = q c^4 v v^T + (1 - q)(d + 2) tau2^2 I, and Sigma^2 shares v, so
  // E[(A - Sigma)^2] has eigenvalue q c^4 + g - lambda1^2 along v and g - lambda2^2 across it, with
  // g = (1 - q)(d + 2) tau2^2 (liu2022 A.3; the spec only states V = O(d)).
  const double d = static_cast<double>(v.size());
  const double g = (1 - q) * (d + 2) * tau2 * tau2;
  const double lambda1 = info_.eigenvalues[0], lambda2 = info_.eigenvalues[1];
  info_.V = std::max(q * c * c * c * c + g - lambda1 * lambda1, g - lambda2 * lambda2) / (lambda1 * lambda1);
  info_.params["spike_probability"] = q;
  info_.params["spike_radius"] = c;
  info_.params["gaussian_variance"] = tau2;
  for (const auto& [name, value] : extra_params) info_.params[name] = value;
  publish_closed_forms(info_);
}

Eigen::MatrixXd SpikeOrGaussianMixture::sample(Eigen::Index n, Rng& rng) const {
  require_sample_count(n, info_.model);
  Eigen::MatrixXd X(v_.size(), n);
  advise_huge_pages(X.data(), sizeof(double) * static_cast<std::size_t>(X.size()));
  // Draw order, per sample: the component (uniform01 < q), then either the sign or the d normals.
  for (Eigen::Index i = 0; i < n; ++i) {
    if (uniform01(rng) < q_) {
      X.col(i) = (rademacher(rng) * c_) * v_;
    } else {
      for (Eigen::Index j = 0; j < X.rows(); ++j) X(j, i) = tau_ * standard_normal(rng);
    }
  }
  return X;
}

double heavy_tail_mixture_alpha(double n, double d, double eps, double delta) {
  if (!(n >= 1) || !(d >= 2) || !(eps > 0) || !(delta > 0 && delta < 1) || !std::isfinite(n) ||
      !std::isfinite(d) || !std::isfinite(eps))
    throw InvalidArgument(
        fmt::format("heavy_tail_mixture_alpha: need n >= 1, d >= 2, eps > 0 and 0 < delta < 1; got n={}, "
                    "d={}, eps={}, delta={}",
                    n, d, eps, delta));
  // spec: liu2022 §5.4 Eq. (30).
  const double by_dimension = (d / 2 - eps) / (n * eps);
  const double by_delta = std::log((1 - std::exp(-eps)) / (4 * delta * std::exp(eps))) / (n * eps);
  const double alpha = std::min({by_dimension, by_delta, 1.0});
  if (!(alpha > 0))
    throw InvalidArgument(
        fmt::format("heavy_tail_mixture_alpha: Eq. (30) gives alpha = {} <= 0; it needs d/2 > eps and "
                    "(1 - e^-eps)/(4 delta e^eps) > 1 (got d={}, eps={}, delta={})",
                    alpha, d, eps, delta));
  return alpha;
}

std::vector<ModelEntry> heavy_tailed_entries() {
  return {heavy_tail_mixture_entry(), fixed_gap_heavy_tail_entry()};
}

}  // namespace dpb::core
