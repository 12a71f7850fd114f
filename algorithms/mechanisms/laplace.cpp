#include "algorithms/mechanisms/laplace.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {

void require_positive(const char* what, double value) {
  if (!(std::isfinite(value) && value > 0))
    throw InvalidArgument(fmt::format("{} must be a finite number > 0, got {}", what, value));
}

}  // namespace

double laplace_scale(double sensitivity, double epsilon) {
  require_positive("sensitivity", sensitivity);
  require_positive("epsilon", epsilon);
  return sensitivity / epsilon;
}

void add_laplace_noise(Eigen::Ref<Eigen::MatrixXd> v, double b, core::Rng& rng) {
  require_positive("Laplace noise scale b", b);
  for (Eigen::Index j = 0; j < v.cols(); ++j)
    for (Eigen::Index i = 0; i < v.rows(); ++i) v(i, j) += core::laplace(rng, b);
}

double bounded_laplace(core::Rng& rng, double lambda, double tau) {
  require_positive("bounded Laplace scale lambda", lambda);
  require_positive("bounded Laplace bound tau", tau);
  const double sign = core::rademacher(rng);
  // spec: kumar2025 §1.3. With m = expm1(-tau/lambda) = -(1 - exp(-tau/lambda)) the magnitude is
  // -lambda log1p(U m); expm1/log1p keep it accurate when tau << lambda.
  const double magnitude = -lambda * std::log1p(core::uniform01(rng) * std::expm1(-tau / lambda));
  return sign * std::min(magnitude, tau);  // min: rounding must not leave the support
}

double bounded_laplace_min_tau(double sensitivity, double epsilon, double delta) {
  if (!(delta > 0 && delta < 1))
    throw InvalidArgument(fmt::format("delta must lie in (0, 1), got {}", delta));
  return laplace_scale(sensitivity, epsilon) * std::log(4.0 / delta);  // spec: kumar2025 Fact 2
}

}  // namespace dpb::alg
