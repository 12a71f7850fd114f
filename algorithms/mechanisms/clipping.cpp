#include "algorithms/mechanisms/clipping.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::alg {
namespace {

void check_radius(double radius) {
  if (!(radius > 0)) throw InvalidArgument(fmt::format("clipping radius must be > 0, got {}", radius));
}

// Shared by the l2 and Frobenius clips: both are the Euclidean norm of the entries.
template <class Dense>
bool clip_norm(Dense& y, double radius) {
  check_radius(radius);
  double norm = y.norm();
  if (std::isinf(norm)) norm = y.stableNorm();  // finite entries whose squares overflow
  if (!std::isfinite(norm)) throw InvalidArgument("clipping: the input has a NaN or infinite entry");
  if (norm <= radius) return false;
  y *= radius / norm;
  return true;
}

}  // namespace

bool l2_clip(Eigen::Ref<Eigen::VectorXd> y, double radius) { return clip_norm(y, radius); }

bool frobenius_clip(Eigen::Ref<Eigen::MatrixXd> y, double radius) { return clip_norm(y, radius); }

Eigen::Index truncate_coordinates(Eigen::Ref<Eigen::MatrixXd> x, double radius) {
  check_radius(radius);
  if (x.hasNaN()) throw InvalidArgument("truncation: the input has a NaN entry");
  const Eigen::Index truncated = (x.array().abs() > radius).count();
  x = x.cwiseMax(-radius).cwiseMin(radius);  // = sign(x_j) min(|x_j|, R)
  return truncated;
}

}  // namespace dpb::alg
