#include "algorithms/covariance/marchenko_pastur.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <boost/math/constants/constants.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::alg {

namespace {
constexpr double kPi = boost::math::constants::pi<double>();
}

MarchenkoPastur::MarchenkoPastur(double ratio, double tolerance) : ratio_(ratio), tolerance_(tolerance) {
  if (!(std::isfinite(ratio) && ratio > 0))
    throw InvalidArgument(
        fmt::format("Marchenko–Pastur: the ratio p/n must be a finite number > 0, got {}", ratio));
  if (!(std::isfinite(tolerance) && tolerance > 0 && tolerance < 1))
    throw InvalidArgument(
        fmt::format("Marchenko–Pastur: the quadrature tolerance must lie in (0, 1), got {}", tolerance));
  const double s = std::sqrt(ratio);
  lower_ = (1 - s) * (1 - s);
  upper_ = (1 + s) * (1 + s);
}

double MarchenkoPastur::density(double x) const {
  if (!(x > lower_ && x < upper_) || x <= 0) return 0.0;
  return std::sqrt((x - lower_) * (upper_ - x)) / (2 * kPi * std::min(1.0, ratio_) * x);
}

double MarchenkoPastur::theta_of(double x) const {
  if (x <= lower_) return 0.0;
  if (x >= upper_) return kPi;
  return std::acos(std::clamp(1 - 2 * (x - lower_) / (upper_ - lower_), -1.0, 1.0));
}

double MarchenkoPastur::tail_from_theta(double theta) const {
  if (theta >= kPi) return 0.0;
  const double half_width = (upper_ - lower_) / 2;
  const double scale = half_width * half_width / (2 * kPi * std::min(1.0, ratio_));
  const auto integrand = [&](double t) {
    const double x = lower_ + half_width * (1 - std::cos(t));
    const double sin_t = std::sin(t);
    // At ratio = 1 the lower edge is 0: x ~ half_width t^2 / 2 and sin^2 t / x -> 2 / half_width as t -> 0.
    return x > 0 ? scale * sin_t * sin_t / x : scale * 2 / half_width;
  };
  double error = 0;
  return boost::math::quadrature::gauss_kronrod<double, 31>::integrate(integrand, std::max(theta, 0.0), kPi,
                                                                       15, tolerance_, &error);
}

double MarchenkoPastur::upper_tail(double x) const { return tail_from_theta(theta_of(x)); }

double MarchenkoPastur::upper_quantile(double probability) const {
  if (!(probability >= 0 && probability <= 1))
    throw InvalidArgument(
        fmt::format("Marchenko–Pastur: a quantile level must lie in [0, 1], got {}", probability));
  if (probability <= 0) return upper_;
  if (probability >= 1) return lower_;
  // The tail decreases in theta from 1 (theta = 0) to 0 (theta = pi): solve in theta, map back.
  boost::uintmax_t iterations = 200;
  const auto [lo, hi] = boost::math::tools::toms748_solve(
      [&](double t) { return tail_from_theta(t) - probability; }, 0.0, kPi, 1 - probability, -probability,
      boost::math::tools::eps_tolerance<double>(48), iterations);
  const double theta = (lo + hi) / 2;
  return lower_ + (upper_ - lower_) / 2 * (1 - std::cos(theta));
}

}  // namespace dpb::alg
