#pragma once
// Composition accountants for (eps, delta) budgets.
#include <cstdint>
#include <span>

namespace dpb::alg {

// A privacy budget (eps, delta). Unlike `Privacy` (algorithms/privacy.hpp) it carries no neighbour
// notion: composition is the same under either.
struct Budget {
  double epsilon = 0;
  double delta = 0;
};

// Throws dpb::InvalidArgument unless eps is finite and > 0 and delta lies in [0, 1) (the rules of
// `validate(const Privacy&)`).
void validate(const Budget& budget);

// Basic composition (liu2022 Lemma B.3; kumar2025 §1.6): (sum eps_i, sum delta_i). Every step is
// validated; the empty list composes to (0, 0).
Budget basic_composition(std::span<const Budget> steps);

// Advanced composition, kumar2025 Lemma 1 (DR14 Thm 3.20): k adaptive steps, each `per_step`-DP, are
// (sqrt(2k log(1/delta0)) eps + k eps (e^eps - 1), k delta + delta0)-DP for any delta0 in (0, 1).
// Needs k >= 1. The result's delta may reach 1 (a vacuous guarantee); it is not validated.
Budget advanced_composition(const Budget& per_step, std::int64_t k, double delta0);

// liu2022 Lemma B.4: the per-step budget (eps / (2 sqrt(2k log(2/delta))), delta / (2k)) that makes k
// adaptive accesses (eps, delta)-DP in total. Valid only for eps <= 0.9 (throws dpb::InvalidArgument
// otherwise); needs delta in (0, 1) and k >= 1.
Budget advanced_composition_step_budget(const Budget& total, std::int64_t k);

}  // namespace dpb::alg
