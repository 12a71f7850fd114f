#include "lowerbounds/constructions/subspace_packing.hpp"

#include <fmt/core.h>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"

namespace dpb::lower {

namespace {

core::NormSpec schatten(double q) { return {core::Norm::schatten, q, false}; }

void require_valid(const SubspacePackingSpec& spec) {
  if (spec.ambient < 1 || spec.rank < 1 || spec.rank > spec.ambient)
    throw InvalidArgument(fmt::format(
        "subspace packing: need 1 <= rank <= ambient, got rank {} in dimension {}", spec.rank, spec.ambient));
  if (!(spec.q >= 1))
    throw InvalidArgument(
        fmt::format("subspace packing: Schatten index q must lie in [1, inf], got {}", spec.q));
  if (!(spec.min_distance >= 0) || !std::isfinite(spec.min_distance))
    throw InvalidArgument(
        fmt::format("subspace packing: min_distance must be finite and >= 0, got {}", spec.min_distance));
  if (spec.max_size < 1 || spec.max_candidates < 1)
    throw InvalidArgument("subspace packing: max_size and max_candidates must be >= 1");
}

}  // namespace

double SubspacePacking::log_size() const { return std::log(static_cast<double>(frames.size())); }

double SubspacePacking::min_distance() const {
  double smallest = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < distances.rows(); ++i)
    for (Eigen::Index j = i + 1; j < distances.cols(); ++j) smallest = std::min(smallest, distances(i, j));
  return smallest;
}

SubspacePacking build_subspace_packing(const SubspacePackingSpec& spec) {
  require_valid(spec);
  core::Rng rng(spec.seed, core::hash_name("lower.subspace_packing"));
  SubspacePacking packing;
  packing.q = spec.q;
  for (std::size_t drawn = 0; drawn < spec.max_candidates && packing.size() < spec.max_size; ++drawn) {
    Eigen::MatrixXd candidate = core::haar_frame(rng, spec.ambient, spec.rank);
    bool far_enough = true;
    for (const auto& kept : packing.frames)
      if (core::projector_distance(candidate, kept, schatten(spec.q)) < spec.min_distance) {
        far_enough = false;
        break;
      }
    if (far_enough) packing.frames.push_back(std::move(candidate));
  }
  packing.distances = pairwise_projector_distances(packing.frames, spec.q);
  return packing;
}

Eigen::MatrixXd pairwise_projector_distances(const std::vector<Eigen::MatrixXd>& frames, double q) {
  const auto count = static_cast<Eigen::Index>(frames.size());
  Eigen::MatrixXd distances = Eigen::MatrixXd::Zero(count, count);
  for (Eigen::Index i = 0; i < count; ++i)
    for (Eigen::Index j = i + 1; j < count; ++j)
      distances(i, j) = distances(j, i) = core::projector_distance(frames[i], frames[j], schatten(q));
  return distances;
}

}  // namespace dpb::lower
