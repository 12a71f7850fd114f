#include "lowerbounds/constructions/liu2022_explicit_bounds.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "bounds/params.hpp"
#include "core/errors.hpp"
#include "lowerbounds/constructions/barber_duchi.hpp"
#include "lowerbounds/constructions/dp_fano.hpp"
#include "lowerbounds/constructions/heavy_tail_families.hpp"
#include "lowerbounds/constructions/liu2022_packing.hpp"

namespace dpb::lower {
namespace {

Liu2022Code packing_code(const bounds::Params& p) {
  const double d = bounds::positive(p, "d");
  const double seed = bounds::param_or(p, "packing_seed", default_packing_seed);
  const double max_words = bounds::param_or(p, "packing_max_words", default_packing_max_words);
  if (d != std::floor(d) || seed < 0 || seed != std::floor(seed) || max_words != std::floor(max_words))
    throw InvalidArgument(fmt::format(
        "liu2022 lower bound: d = {}, packing_seed = {} and packing_max_words = {} must be whole numbers", d,
        seed, max_words));
  return liu2022_lemma_c5_code(static_cast<int>(d), static_cast<std::uint64_t>(seed),
                               static_cast<std::size_t>(std::max(0.0, max_words)));
}

// lambda1 - lambda2, which every construction here needs positive.
double eigengap(double lambda1, double lambda2) {
  if (!(lambda1 > lambda2))
    throw InvalidArgument(
        fmt::format("parameters 'lambda1' = {} and 'lambda2' = {} need lambda1 > lambda2", lambda1, lambda2));
  return lambda1 - lambda2;
}

}  // namespace

double liu2022_thm53_value(const bounds::Params& p) {
  const double n = bounds::positive(p, "n"), eps = bounds::positive(p, "epsilon");
  const double lambda1 = bounds::positive(p, "lambda1"), lambda2 = bounds::positive(p, "lambda2");
  const double gap = eigengap(lambda1, lambda2);
  const Liu2022Code code = packing_code(p);
  double best = 0;
  const int points =
      static_cast<int>(std::lround(-std::log10(fano_alpha_grid_min) * fano_alpha_grid_points_per_decade));
  for (int i = 0; i <= points; ++i) {
    const double alpha = std::pow(10.0, -static_cast<double>(i) / fano_alpha_grid_points_per_decade);
    const PackingGeometry geometry = liu2022_packing_geometry(code, alpha);
    // spec: liu2022 §5.3: exact Gaussian KL, half the printed Eq. (21).
    const double kl = gap * gap * geometry.max_one_minus_cos2 / (2 * lambda1 * lambda2);
    const double tv = std::min(1.0, std::sqrt(kl / 2));
    if (!(geometry.min_sin > 0 && tv > 0)) continue;  // alpha so small the pairs coincide in floating point
    best = std::max(best, dp_fano_conservative({n, eps, geometry.min_sin, kl, tv, code.log_size}));
  }
  return best;
}

double liu2022_thm54_alpha(double n, double eps, double delta, double log_size_minus_one) {
  const double by_packing = (log_size_minus_one - eps) / (n * eps);
  const double by_delta = std::log(-std::expm1(-eps) / (4 * delta * std::exp(eps))) / (n * eps);
  const double alpha = std::min({by_packing, by_delta, 1.0});
  if (!(alpha > 0))
    throw InvalidArgument(fmt::format(
        "liu2022 Thm 5.4: the mixture weight (Eq. (30) with log(|V|-1) = {}) is {} <= 0; it needs "
        "log(|V|-1) > eps and delta < (1 - e^-eps)/(4 e^eps) (eps = {}, delta = {})",
        log_size_minus_one, alpha, eps, delta));
  return alpha;
}

double liu2022_thm54_value(const bounds::Params& p) {
  const double n = bounds::positive(p, "n"), eps = bounds::positive(p, "epsilon");
  const double delta = bounds::unit_interval(p, "delta");
  const Liu2022Code code = packing_code(p);
  const double log_size_minus_one = std::log(std::expm1(code.log_size));
  const double alpha = liu2022_thm54_alpha(n, eps, delta, log_size_minus_one);
  const double min_sin = liu2022_packing_geometry(code, thm54_packing_alpha).min_sin;
  const double probability = barber_duchi_error_probability({n, alpha, eps, delta, code.log_size});
  return (min_sin / 2) * std::max(0.0, probability);  // E sin >= t P(sin >= t), t = min_sin/2
}

double liu2022_thmC1_value(const bounds::Params& p) {
  const double n = bounds::positive(p, "n"), eps = bounds::positive(p, "epsilon");
  const double lambda1 = bounds::positive(p, "lambda1"), lambda2 = bounds::positive(p, "lambda2");
  eigengap(lambda1, lambda2);
  const Liu2022Code code = packing_code(p);
  const double min_sin = liu2022_packing_geometry(code, std::sqrt(lambda2 / lambda1)).min_sin;
  const double tv = liu2022_thmC1_spike_probability(bounds::param(p, "d"), lambda1, lambda2);
  const double infinite_kl = std::numeric_limits<double>::infinity();
  return dp_fano_conservative({n, eps, min_sin, infinite_kl, tv, code.log_size});
}

}  // namespace dpb::lower
