#include "lowerbounds/constructions/dp_fano.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

namespace dpb::lower {
namespace {

// Printed constants of Theorem C.2 (spec: liu2022 §5.1).
constexpr double privacy_term_factor = 0.4;
constexpr double exponent_factor_000 = 10;

void validate(const FanoInputs& in) {
  if (!(in.n >= 1) || !(in.eps > 0) || !(in.tau > 0) || !(in.kl >= 0) || !(in.tv > 0 && in.tv <= 1) ||
      !(in.log_size > 0) || !std::isfinite(in.n) || !std::isfinite(in.eps) || !std::isfinite(in.tau) ||
      !std::isfinite(in.log_size))
    throw InvalidArgument(fmt::format(
        "dp_fano: need n >= 1, eps > 0, tau > 0, KL >= 0, TV in (0, 1] and log|V| > 0; got n={}, eps={}, "
        "tau={}, KL={}, TV={}, log|V|={}",
        in.n, in.eps, in.tau, in.kl, in.tv, in.log_size));
}

}  // namespace

FanoBound dp_fano(const FanoInputs& in, FanoVariant variant) {
  validate(in);
  FanoBound bound;
  bound.statistical = std::isinf(in.kl) ? -std::numeric_limits<double>::infinity()
                                        : (in.tau / 2) * (1 - (in.n * in.kl + std::log(2.0)) / in.log_size);
  const double exposure = in.n * in.tv * in.eps;
  const double second = variant == FanoVariant::printed_003
                            ? std::min(1.0, in.log_size / exposure)
                            : std::min(1.0, std::exp(in.log_size - exponent_factor_000 * exposure));
  bound.privacy = privacy_term_factor * in.tau * second;
  return bound;
}

double dp_fano_conservative(const FanoInputs& in) {
  return std::min(dp_fano(in, FanoVariant::printed_003).value(),
                  dp_fano(in, FanoVariant::printed_000).value());
}

}  // namespace dpb::lower
