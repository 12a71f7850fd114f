#include "lowerbounds/constructions/private_assouad.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::lower {

namespace {

// Lemma 31 (ASZ21 Thm 1) constants: 0.9 e^{-10 eps D} - 10 D delta.
constexpr double asz_factor = 0.9;
constexpr double asz_rate = 10.0;

}  // namespace

double assouad_constant(AssouadConstant which) { return which == AssouadConstant::paper ? 0.5 : 0.25; }

double private_assouad_bound(const AssouadInputs& in, double eps, double delta, AssouadConstant constant) {
  if (!(in.tau > 0) || in.dimension < 1 || !(in.min_fraction > 0 && in.min_fraction <= 0.5) ||
      !(in.coupling_distance >= 0))
    throw InvalidArgument(fmt::format(
        "private Assouad: need tau > 0, dimension >= 1, min_fraction in (0, 1/2] and D >= 0, got tau = {}, "
        "dimension = {}, min_fraction = {}, D = {}",
        in.tau, in.dimension, in.min_fraction, in.coupling_distance));
  if (!(eps >= 0) || !(delta >= 0 && delta <= 1))
    throw InvalidArgument(fmt::format(
        "private Assouad: need eps >= 0 and delta in [0, 1], got eps = {}, delta = {}", eps, delta));
  const double D = in.coupling_distance;
  const double testing = asz_factor * std::exp(-asz_rate * eps * D) - asz_rate * D * delta;
  const double value = assouad_constant(constant) * in.tau * in.dimension * in.min_fraction * testing;
  return std::max(0.0, value);
}

AssouadInputs padded_subcube_assouad_inputs(const PaddedSubcube& cube, double n) {
  if (!(n >= 1)) throw InvalidArgument(fmt::format("private Assouad: n = {} must be >= 1", n));
  double touch = 0;
  for (int i = 0; i < cube.m; ++i) touch = std::max(touch, coordinate_touch_probability(cube, i));
  return {measured_separation(cube), cube.m, 0.5, n * touch};
}

}  // namespace dpb::lower
