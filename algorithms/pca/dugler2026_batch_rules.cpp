#include "algorithms/pca/dugler2026_batch_rules.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::alg::dugler2026 {
namespace {

const char* rule_name(BatchRule r) {
  switch (r) {
    case BatchRule::n_over_log_n:
      return "n_over_log_n";
    case BatchRule::sqrt_n:
      return "sqrt_n";
    case BatchRule::fixed:
      return "fixed";
    case BatchRule::theory_steps:
      return "theory_steps";
  }
  return "";
}

}  // namespace

double theory_log_argument(Eigen::Index n, Eigen::Index d, Eigen::Index k, double zeta, const Privacy& privacy) {
  return static_cast<double>(n * d * k) / (zeta * privacy.delta * privacy.epsilon);
}

Eigen::Index even_floor(double x) {
  return std::max<Eigen::Index>(2, 2 * static_cast<Eigen::Index>(std::floor(x / 2)));
}

BatchPlan plan_batches(const BatchSettings& s, Eigen::Index n, bool even, double theory_log_argument,
                       const BatchRequirement& req, const std::string& owner, const std::string& prefix) {
  const double nd = static_cast<double>(n);
  double real_B = 0;
  switch (s.rule) {
    case BatchRule::n_over_log_n:
      real_B = nd / std::log(std::max(nd, 3.0));
      break;  // Thm 1, 2
    case BatchRule::sqrt_n:
      real_B = std::sqrt(nd);
      break;  // F.2 grid
    case BatchRule::fixed:
      if (s.batch_size < 1)
        throw InvalidArgument(
            fmt::format("{}: {}batch_rule = fixed needs {}batch_size >= 1", owner, prefix, prefix));
      real_B = static_cast<double>(s.batch_size);
      break;
    case BatchRule::theory_steps: {  // Thm 3: T = ceil(C_T log(ndk/(zeta delta eps))), B = floor(n/T)
      const double T = s.steps > 0
                           ? static_cast<double>(s.steps)
                           : std::max(1.0, std::ceil(s.C_T * std::log(std::max(theory_log_argument, 1.0))));
      real_B = std::floor(nd / T);
      break;
    }
  }
  BatchPlan plan;
  plan.requested =
      even ? even_floor(real_B) : std::max<Eigen::Index>(1, static_cast<Eigen::Index>(std::floor(real_B)));
  plan.B = plan.requested;
  const auto steps_of = [n](Eigen::Index B) { return std::max<Eigen::Index>(1, n / B); };
  // A batch is feasible when it meets the requirement of the run it makes, of floor(n / B) steps.
  const auto feasible = [&](Eigen::Index B) { return !req.min_batch || B >= req.min_batch(steps_of(B)); };
  const auto why = [&](Eigen::Index T) { return req.why ? req.why(T) : std::string("its requirement"); };
  if (plan.B > n) {
    if (s.rule == BatchRule::fixed)
      throw InvalidArgument(
          fmt::format("{}: batch size B = {} ({}batch_rule = {}) exceeds the n = {} samples given", owner,
                      plan.B, prefix, rule_name(s.rule), n));
    // A rule's B is at most n but for B = 2 at n = 1, where batches are halved.
    throw InvalidArgument(fmt::format("{}: n = {} samples cannot fill one batch: {}batch_rule = {} gives B = {}{}; "
                                      "give at least {} samples",
                                      owner, n, prefix, rule_name(s.rule), plan.B,
                                      even ? " (each batch is halved, so B is even)" : "", plan.B));
  }
  if (!feasible(plan.B)) {
    // The requirement grows with T, and T = floor(n / B) falls as B rises, so the feasible batches are those
    // above one threshold: bisect [requested, the largest batch n samples hold] for it.
    const Eigen::Index step = even ? 2 : 1;
    const Eigen::Index largest = n - n % step;
    if (!feasible(largest)) {
      Eigen::Index need = req.min_batch(1);
      need += need % step;
      throw InvalidArgument(
          fmt::format("{}: needs a batch of B >= {} samples ({}) but only n = {} are given; it needs n >= {}",
                      owner, need, why(1), n, need));
    }
    Eigen::Index lo = 0, hi = (largest - plan.B) / step;  // offsets: lo infeasible, hi feasible
    while (hi - lo > 1) {
      const Eigen::Index mid = lo + (hi - lo) / 2;
      (feasible(plan.B + mid * step) ? hi : lo) = mid;
    }
    const Eigen::Index smallest = plan.B + hi * step;
    if (!s.auto_increase)
      throw InvalidArgument(
          fmt::format("{}: batch size B = {} ({}batch_rule = {}) is infeasible: over its T = {} steps {}; "
                      "it needs B >= {} (the smallest feasible batch, T = {}; set {}auto_increase = yes or a "
                      "larger batch)",
                      owner, plan.B, prefix, rule_name(s.rule), steps_of(plan.B), why(steps_of(plan.B)),
                      smallest, steps_of(smallest), prefix));
    plan.B = smallest;
    plan.increased = true;
  }
  plan.T = n / plan.B;
  return plan;
}

const FieldTable<BatchSettings>& batch_fields() {
  static const FieldTable<BatchSettings> fields = [] {
    using S = BatchSettings;
    const std::string ref = "dugler2026 §7 F.2, §8 item 1";
    std::vector<std::pair<std::string, BatchRule>> rules;
    for (auto r : {BatchRule::n_over_log_n, BatchRule::sqrt_n, BatchRule::fixed, BatchRule::theory_steps})
      rules.emplace_back(rule_name(r), r);
    FieldTable<S> t;
    t.choice("batch_rule", &S::rule, rules,
             "batch size rule: n/log n (Thms 1-2), sqrt(n) (F.2 grid), fixed (batch_size), theory_steps (Thm 3: T = "
             "steps or ceil(C_T log(ndk/(zeta delta eps))), B = floor(n/T)); even-rounded where batches are halved",
             ref + ", ambiguity 13")
        .integer("batch_size", &S::batch_size, 0.0, "B for batch_rule = fixed", ref)
        .integer("steps", &S::steps, 0.0, "T for batch_rule = theory_steps (0: from C_T)",
                 "dugler2026 ambiguity 3 (expose T directly)")
        .real("C_T", &S::C_T, 1e-9, std::nullopt, "universal constant C_T of Thm 3's step count",
              "dugler2026 §2.3, §8 item 2")
        .choice("auto_increase", &S::auto_increase, {{"yes", true}, {"no", false}},
                "raise B to the smallest feasible batch (yes) or refuse with the required size (no)",
                "dugler2026 §7 F.2, ambiguity 2");
    return t;
  }();
  return fields;
}

}  // namespace dpb::alg::dugler2026
