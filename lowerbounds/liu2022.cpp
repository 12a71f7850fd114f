// Lower bounds of Liu, Kong, Jain, Oh 2022 (spec: liu2022 §5). All bound inf_vhat sup_P E sin(vhat, v1).
//
// Parameters (bounds::Params names):
//   n, d, epsilon, delta      sample size, dimension, privacy
//   lambda1, lambda2          top eigenvalues (Thm 5.3, C.1); kappa = lambda1/(lambda1 - lambda2) is derived
//   kappa                     Thm 5.4 only: tied to the mixture weight, not to free eigenvalues
//   packing_seed, packing_max_words   the Lemma C.5 packing the explicit values are computed on
// Explicit values come from lowerbounds/constructions/liu2022_explicit_bounds (constructions actually built).
#include <fmt/core.h>
#include <cmath>
#include <string>
#include <utility>

#include "bounds/params.hpp"
#include "core/errors.hpp"
#include "core/models/heavy_tailed.hpp"
#include "lowerbounds/constructions/liu2022_explicit_bounds.hpp"
#include "lowerbounds/papers.hpp"

namespace dpb::lower {
namespace {

using bounds::Condition;
using bounds::Params;
using bounds::positive;
using bounds::Theorem;
using bounds::unit_interval;

// Lemma C.3 as [000] states it (Ambiguity 25): d > 10.
constexpr double packing_dimension_threshold = 10;

// Every liu2022 lower bound is on E sin(vhat, v1) over a class of DP estimators.
Theorem expected_sin_lower_bound(std::string id, std::string source, std::string dp_class) {
  Theorem t;
  t.id = std::move(id);
  t.source = std::move(source);
  t.kind = bounds::Kind::lower;
  t.loss = {bounds::Loss::Name::sin};
  t.semantics = {false, 0};
  t.applies = {std::move(dp_class)};
  return t;
}

double kappa_from_eigenvalues(const Params& p) {
  const double l1 = positive(p, "lambda1"), l2 = positive(p, "lambda2");
  if (!(l1 > l2))
    throw InvalidArgument(fmt::format("need lambda1 > lambda2 > 0; got lambda1 = {}, lambda2 = {}", l1, l2));
  return l1 / (l1 - l2);
}
double eigenvalue_ratio(const Params& p) {
  return std::sqrt(positive(p, "lambda2") / positive(p, "lambda1"));
}

Condition packing_dimension() {
  return {"d > 10", "d > 10 (Lemma C.3 as [000] states it)",
          [](const Params& p) { return positive(p, "d") > packing_dimension_threshold; }};
}

Theorem thm5_3() {
  Theorem t = expected_sin_lower_bound(
      "liu2022.thm5.3", "Liu, Kong, Jain, Oh 2022, Theorem 5.3 (Eq. 12; proof App. C.1, Eqs. 20-24)",
      "(eps,0)-DP");
  t.rate = [](const Params& p) {
    const double n = positive(p, "n"), d = positive(p, "d");
    return std::min(
        kappa_from_eigenvalues(p) * (std::sqrt(d / n) + d / (positive(p, "epsilon") * n)) * eigenvalue_ratio(p),
        1.0);
  };
  t.conditions = {packing_dimension()};
  t.explicit_value = liu2022_thm53_value;
  t.latex =
      R"(\inf_{\hat v}\sup_P \mathbb E\sin(\hat v, v_1) \gtrsim \min\left(\kappa\left(\sqrt{\frac{d}{n}} + \frac{d}{\varepsilon n}\right)\sqrt{\frac{\lambda_2}{\lambda_1}},\ 1\right))";
  t.hides = "a universal constant C (nothing polylogarithmic)";
  t.setting = "liu2022.gaussian";
  t.example = {{"n", 1e7}, {"d", 20}, {"epsilon", 0.5}, {"lambda1", 2}, {"lambda2", 1}};
  return t;
}

// The mixture weight the Thm 5.4 construction uses at (n, d, eps, delta), Eq. (30), and kappa it implies.
double thm54_kappa(double n, double d, double eps, double delta) {
  const double alpha = core::heavy_tail_mixture_alpha(n, d, eps, delta);
  return (1 - alpha + std::sqrt(alpha)) / std::sqrt(alpha);
}

Theorem thm5_4() {
  Theorem t = expected_sin_lower_bound(
      "liu2022.thm5.4", "Liu, Kong, Jain, Oh 2022, Theorem 5.4 (Eq. 13; proof App. C.2, Eqs. 25-32)",
      "(eps,delta)-DP");
  t.rate = [](const Params& p) {
    const double eps = positive(p, "epsilon");
    const double budget = std::min(positive(p, "d"), std::log(-std::expm1(-eps) / unit_interval(p, "delta")));
    return positive(p, "kappa") * std::min(std::sqrt(budget / (eps * positive(p, "n"))), 1.0);
  };
  t.conditions = {
      {"d >= 2", "d >= 2", [](const Params& p) { return positive(p, "d") >= 2; }},
      {"Eq. (30) alpha > 0", "delta < (1 - e^{-eps})/(4 e^{eps}) and d/2 > eps", [](const Params& p) {
         const double eps = positive(p, "epsilon");
         return unit_interval(p, "delta") < -std::expm1(-eps) / (4 * std::exp(eps)) &&
                positive(p, "d") / 2 > eps;
       }}};
  t.explicit_value = liu2022_thm54_value;
  t.latex =
      R"(\sup_{P\in\tilde{\mathcal P}} \mathbb E\sin(\hat v, v_1) \gtrsim \kappa\min\left(\sqrt{\frac{d\wedge\log((1-e^{-\varepsilon})/\delta)}{\varepsilon n}},\ 1\right))";
  t.hides = "a universal constant C; kappa is tied to the mixture weight (kappa sqrt(alpha) in [1, 1.25])";
  t.setting = "liu2022.heavy_tailed";
  const double n = 1e4, d = 20, eps = 1, delta = 1e-6;
  t.example = {{"n", n}, {"d", d}, {"epsilon", eps}, {"delta", delta}, {"kappa", thm54_kappa(n, d, eps, delta)}};
  return t;
}

Theorem thmC_1() {
  Theorem t = expected_sin_lower_bound(
      "liu2022.thmC.1", "Liu, Kong, Jain, Oh 2022, Theorem C.1 (Eq. 19; proof App. C.3, Eq. 34)",
      "(eps,0)-DP");
  t.rate = [](const Params& p) {
    const double d = positive(p, "d"), ratio = eigenvalue_ratio(p);
    return std::min(kappa_from_eigenvalues(p) * d * d / (positive(p, "epsilon") * positive(p, "n")) * ratio,
                    ratio);
  };
  t.conditions = {packing_dimension()};
  t.explicit_value = liu2022_thmC1_value;
  t.latex =
      R"(\sup_P \mathbb E\sin(\hat v, v_1) \gtrsim \min\left(\frac{\kappa d^2}{\varepsilon n}\sqrt{\frac{\lambda_2}{\lambda_1}},\ \sqrt{\frac{\lambda_2}{\lambda_1}}\right))";
  t.hides = "a universal constant C; proven only in threshold form under the cited Fano (Ambiguity 22)";
  t.setting = "liu2022.heavy_tailed_fixed_gap";
  t.example = {{"n", 1e4}, {"d", 20}, {"epsilon", 1}, {"lambda1", 2}, {"lambda2", 1}};
  return t;
}

}  // namespace

std::vector<bounds::Theorem> liu2022_lower_bounds() { return {thm5_3(), thm5_4(), thmC_1()}; }

}  // namespace dpb::lower
