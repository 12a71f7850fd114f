#include "verify/checks/error_statistic.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"
#include "verify/checks/sample_statistics.hpp"

namespace dpb::verify {

std::size_t trials_for_quantile(double zeta, double factor) {
  if (!(zeta > 0 && zeta < 1)) throw InvalidArgument(fmt::format("zeta must lie in (0, 1), got {}", zeta));
  if (!(factor > 0))
    throw InvalidArgument(fmt::format("the quantile trials factor must be > 0, got {}", factor));
  return static_cast<std::size_t>(std::ceil(factor / zeta));
}

double ErrorStatistic::operator()(const std::vector<double>& values) const {
  return quantile_level ? sample_quantile(values, *quantile_level) : sample_mean(values);
}

ErrorStatistic choose_statistic(const bounds::Semantics& semantics, std::size_t fewest_trials,
                                double factor) {
  if (!semantics.high_probability) return {std::nullopt, "mean: the theorem bounds the expected error"};
  const double zeta = semantics.zeta;
  const std::size_t needed = trials_for_quantile(zeta, factor);
  if (fewest_trials >= needed)
    return {1 - zeta, fmt::format("quantile {:g}: high-probability theorem (zeta = {:g}) and every cell has "
                                  ">= ceil({:g} / zeta) = {} trials",
                                  1 - zeta, zeta, factor, needed)};
  return {std::nullopt, fmt::format("mean: high-probability theorem (zeta = {:g}) but a cell has only {} "
                                    "trials, fewer than the ceil({:g} / zeta) = {} its {:g} quantile needs",
                                    zeta, fewest_trials, factor, needed, 1 - zeta)};
}

}  // namespace dpb::verify
