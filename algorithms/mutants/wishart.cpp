#include "algorithms/mutants/wishart.hpp"

#include <fmt/format.h>

#include <cmath>

#include "algorithms/privacy.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg::mutants {

double wishart_scale(Eigen::Index n, double epsilon) {
  if (n < 1) throw InvalidArgument(fmt::format("wishart_scale: need n >= 1, got {}", n));
  validate_epsilon(epsilon, "wishart_scale");
  return 3.0 / (2.0 * static_cast<double>(n) * epsilon);
}

Eigen::MatrixXd wishart_noise(core::Rng& rng, Eigen::Index d, Eigen::Index degrees_of_freedom, double scale) {
  if (d < 1 || degrees_of_freedom < 1 || !(scale > 0) || !std::isfinite(scale))
    throw InvalidArgument(fmt::format(
        "wishart_noise: need d >= 1, degrees of freedom >= 1 and a finite scale > 0, got d = {}, dof = {}, "
        "scale = {}",
        d, degrees_of_freedom, scale));
  const Eigen::MatrixXd G = std::sqrt(scale) * core::standard_normal_matrix(rng, d, degrees_of_freedom);
  return G * G.transpose();
}

Eigen::MatrixXd wishart_release(const Eigen::MatrixXd& C, Eigen::Index n, double epsilon, core::Rng& rng) {
  return C + wishart_noise(rng, C.rows(), C.rows() + 1, wishart_scale(n, epsilon));
}

}  // namespace dpb::alg::mutants
