#pragma once
// Heavy-tailed mixtures behind liu2022's lower bounds without Assumption A.4: a rare large random-sign
// spike along v, otherwise isotropic Gaussian (Thm 5.4 and Thm C.1 constructions).
#include <Eigen/Dense>
#include <map>
#include <string>
#include <vector>

#include "core/models/model.hpp"

namespace dpb::core {

// With probability q, x = s c v (s uniform on {-1, +1}, ||v|| = 1); otherwise x ~ N(0, tau2 I_d).
// Sigma = q c^2 v v^T + (1 - q) tau2 I (spec: liu2022 §5.4 Eq. (25), §5.5 Eq. (34), §7.3-7.4).
class SpikeOrGaussianMixture final : public Model {
 public:
  // q in (0, 1], c > 0, tau2 > 0; `extra_params` are added to info().params (the catalogue's own
  // parameterisation, e.g. alpha).
  SpikeOrGaussianMixture(const std::string& id, const Eigen::VectorXd& v, double q, double c, double tau2,
                         const std::map<std::string, double>& extra_params);
  const ModelInfo& info() const override { return info_; }
  Eigen::MatrixXd sample(Eigen::Index n, Rng& rng) const override;

 private:
  ModelInfo info_;
  Eigen::VectorXd v_;
  double q_, c_, tau_;
};

// liu2022 Eq. (30): alpha = min{ (d/2 - eps)/(n eps), log((1 - e^{-eps})/(4 delta e^{eps}))/(n eps), 1 },
// the mixture weight of the Thm 5.4 construction (spec: liu2022 §5.4). Throws dpb::InvalidArgument
// for n < 1, d < 2, eps <= 0, delta outside (0, 1), or when the formula gives alpha <= 0.
double heavy_tail_mixture_alpha(double n, double d, double eps, double delta);

// heavy_tail_mixture (Thm 5.4), fixed_gap_heavy_tail (Thm C.1).
std::vector<ModelEntry> heavy_tailed_entries();

}  // namespace dpb::core
