#include "lowerbounds/constructions/barber_duchi.hpp"

#include <fmt/core.h>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::lower {

double barber_duchi_error_probability(const BarberDuchiInputs& in) {
  if (!(in.n >= 1) || !(in.alpha > 0 && in.alpha <= 1) || !(in.eps > 0) || !(in.delta >= 0 && in.delta < 1) ||
      !(in.log_size > 0) || !std::isfinite(in.n) || !std::isfinite(in.eps) || !std::isfinite(in.log_size))
    throw InvalidArgument(fmt::format(
        "barber_duchi: need n >= 1, alpha in (0, 1], eps > 0, delta in [0, 1) and log|V| > 0; got n={}, "
        "alpha={}, eps={}, delta={}, log|V|={}",
        in.n, in.alpha, in.eps, in.delta, in.log_size));
  const double changed = std::ceil(in.n * in.alpha);  // m = ceil(n alpha)
  const double e = std::exp(-in.eps * changed);
  const double numerator = e / 2 - in.delta * (1 - e) / (-std::expm1(-in.eps));
  // (|V| - 1) x / (1 + (|V| - 1) E) = x / (1/(|V| - 1) + E), with |V| - 1 = expm1(log|V|).
  return numerator / (1 / std::expm1(in.log_size) + e);
}

}  // namespace dpb::lower
