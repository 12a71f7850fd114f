#include "algorithms/mechanisms/composition.hpp"

#include <cmath>
#include <fmt/format.h>

#include "algorithms/privacy.hpp"
#include "core/errors.hpp"

namespace dpb::alg {
namespace {

void check_steps(std::int64_t k) {
  if (k < 1) throw InvalidArgument(fmt::format("composition needs k >= 1 steps, got {}", k));
}

}  // namespace

void validate(const Budget& budget) { validate(Privacy{.epsilon = budget.epsilon, .delta = budget.delta}); }

Budget basic_composition(std::span<const Budget> steps) {
  Budget total;
  for (const Budget& step : steps) {
    validate(step);
    total.epsilon += step.epsilon;
    total.delta += step.delta;
  }
  return total;
}

Budget advanced_composition(const Budget& per_step, std::int64_t k, double delta0) {
  validate(per_step);
  check_steps(k);
  if (!(delta0 > 0 && delta0 < 1))
    throw InvalidArgument(fmt::format("advanced composition: delta0 must lie in (0, 1), got {}", delta0));
  const double kd = static_cast<double>(k), eps = per_step.epsilon;
  // spec: kumar2025 Lemma 1; expm1 keeps e^eps - 1 accurate for small eps.
  return {std::sqrt(2.0 * kd * std::log(1.0 / delta0)) * eps + kd * eps * std::expm1(eps),
          kd * per_step.delta + delta0};
}

Budget advanced_composition_step_budget(const Budget& total, std::int64_t k) {
  validate(total);
  check_steps(k);
  if (!(total.delta > 0))
    throw InvalidArgument("liu2022 Lemma B.4 needs delta in (0, 1); delta = 0 gives no per-step budget");
  if (!(total.epsilon <= 0.9))
    throw InvalidArgument(fmt::format(
        "liu2022 Lemma B.4 holds only for eps <= 0.9, got eps = {}; use advanced_composition directly",
        total.epsilon));
  const double kd = static_cast<double>(k);
  // spec: liu2022 §3.1 Lemma B.4
  return {total.epsilon / (2.0 * std::sqrt(2.0 * kd * std::log(2.0 / total.delta))),
          total.delta / (2.0 * kd)};
}

}  // namespace dpb::alg
