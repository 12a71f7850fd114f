#include "verify/checks/exponent_check.hpp"

#include <fmt/format.h>

#include <cmath>

#include "bounds/theorem.hpp"
#include "verify/checks/rate_check.hpp"

namespace dpb::verify {

Verdict check_exponent(const ResultSet& results, const CheckSpec& check, std::uint64_t seed,
                       const CheckOptions& options) {
  // The claimed power law as a condition-free "theorem" on the mean: the slope check then tests exactly
  // the observed slope against s (both sides), with the same statistic, bootstrap and figures.
  bounds::Theorem power_law;
  power_law.id = fmt::format("{}^{:g}", check.vary, check.exponent);
  power_law.semantics.high_probability = false;
  power_law.rate = [vary = check.vary, s = check.exponent](const bounds::Params& p) {
    return std::pow(p.at(vary), s);
  };
  // One side: the rate check's one-sided test of log(error / x^s), the power law read as an upper bound
  // (slope <= s: error / x^s bounded as x grows) or a lower bound (slope >= s: bounded as x -> 0).
  CheckSpec as_slope = check;
  as_slope.kind = check.side == "both" ? "slope" : "rate";
  power_law.kind = check.side == "at_least" ? bounds::Kind::lower : bounds::Kind::upper;
  Verdict v = check_rate_or_slope(results, as_slope, power_law, seed, options);
  v.check = check;
  return v;
}

}  // namespace dpb::verify
