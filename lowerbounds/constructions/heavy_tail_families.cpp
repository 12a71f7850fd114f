#include "lowerbounds/constructions/heavy_tail_families.hpp"

#include <fmt/core.h>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::lower {
namespace {

HeavyTailFamily family(const SpherePacking& packing, const std::string& id, double q, double c, double tau2) {
  HeavyTailFamily f;
  f.spike_probability = q;
  f.spike_radius = c;
  f.gaussian_variance = tau2;
  f.pairwise_tv = q;
  for (Eigen::Index i = 0; i < packing.vectors.cols(); ++i)
    f.members.push_back(std::make_unique<core::SpikeOrGaussianMixture>(id, packing.vectors.col(i), q, c, tau2,
                                                                       std::map<std::string, double>{}));
  const auto& eig = f.members.front()->info().eigenvalues;
  f.lambda1 = eig[0];
  f.lambda2 = eig[1];
  return f;
}

}  // namespace

HeavyTailFamily liu2022_thm54_family(const SpherePacking& packing, double alpha) {
  if (!(alpha > 0 && alpha <= 1))
    throw InvalidArgument(fmt::format("liu2022_thm54_family: alpha = {} must lie in (0, 1]", alpha));
  // spec: liu2022 §5.4 Eq. (25): Q_v uniform on {+-alpha^{-1/4} v}, Q_0 = N(0, I_d).
  return family(packing, "liu2022.thm5.4.family", alpha, std::pow(alpha, -0.25), 1.0);
}

double liu2022_thmC1_spike_probability(double d, double lambda1, double lambda2) {
  if (!(lambda1 > lambda2 && lambda2 > 0) || !(d >= 1))
    throw InvalidArgument(
        fmt::format("liu2022 Thm C.1 family: need lambda1 > lambda2 > 0 and d >= 1, got "
                    "lambda1 = {}, lambda2 = {}, d = {}",
                    lambda1, lambda2, d));
  return (1 - lambda2 / lambda1) / d;  // spec: liu2022 §5.5 Eq. (34)
}

HeavyTailFamily liu2022_thmC1_family(const SpherePacking& packing, double lambda1, double lambda2) {
  const double d = static_cast<double>(packing.vectors.rows());
  const double p = liu2022_thmC1_spike_probability(d, lambda1, lambda2);
  return family(packing, "liu2022.thmC.1.family", p, std::sqrt(d * lambda1), lambda2 / (1 - p));
}

}  // namespace dpb::lower
