#include "algorithms/mechanisms/clipping.hpp"

#include <fmt/format.h>
#include <cmath>
#include <utility>

#include "core/errors.hpp"

namespace dpb::alg {
namespace {

void check_radius(double radius) {
  if (!(radius > 0)) throw InvalidArgument(fmt::format("clipping radius must be > 0, got {}", radius));
}

// Scales y onto the sphere of `radius` in the norm `norm_of` computes when it lies outside. Finite entries
// whose norm overflows are measured as max |y_i| times the norm of y / max |y_i|, and scaled in that order.
template <class Dense, class Norm>
bool clip_norm(Dense& y, double radius, Norm norm_of) {
  check_radius(radius);
  double largest = 1, relative = norm_of(y);  // ||y|| = largest * relative
  if (std::isinf(relative) && y.allFinite()) {
    largest = y.cwiseAbs().maxCoeff();
    relative = norm_of(y / largest);
  }
  if (!std::isfinite(relative)) throw InvalidArgument("clipping: the input has a NaN or infinite entry");
  if (largest * relative <= radius) return false;
  y *= radius / largest / relative;
  return true;
}

const auto euclidean = [](const auto& y) { return y.norm(); };

// For a caller that measured the norm: clip_norm's first measurement is the caller's; a rescaled one
// (overflow) is taken.
auto measured_once(double norm) {
  return [norm, measured = true](const auto& v) mutable {
    return std::exchange(measured, false) ? norm : v.norm();
  };
}

}  // namespace

bool l2_clip(Eigen::Ref<Eigen::VectorXd> y, double radius) { return clip_norm(y, radius, euclidean); }

bool l2_clip(Eigen::Ref<Eigen::VectorXd> y, double radius, double norm) {
  return clip_norm(y, radius, measured_once(norm));
}

bool frobenius_clip(Eigen::Ref<Eigen::MatrixXd> y, double radius) { return clip_norm(y, radius, euclidean); }

bool frobenius_clip(Eigen::Ref<Eigen::MatrixXd> y, double radius, double norm) {
  return clip_norm(y, radius, measured_once(norm));
}

bool l1_clip(Eigen::Ref<Eigen::VectorXd> y, double radius) {
  return clip_norm(y, radius, [](const auto& v) { return v.template lpNorm<1>(); });
}

Eigen::Index truncate_coordinates(Eigen::Ref<Eigen::MatrixXd> x, double radius) {
  check_radius(radius);
  if (x.hasNaN()) throw InvalidArgument("truncation: the input has a NaN entry");
  const Eigen::Index truncated = (x.array().abs() > radius).count();
  x = x.cwiseMax(-radius).cwiseMin(radius);  // = sign(x_j) min(|x_j|, R)
  return truncated;
}

}  // namespace dpb::alg
