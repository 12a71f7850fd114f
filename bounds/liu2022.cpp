// Upper bounds of Liu, Kong, Jain, Oh 2022, "DP-PCA: Statistically Optimal and Differentially Private PCA"
// (spec: liu2022 §4). Loss: sin(w, v1) everywhere the theorem bounds an estimate of v1; bounds printed for
// sin^2 are encoded by their square root. All hold with probability 1 - zeta, zeta = 0.01 (spec §1.3).
//
// Parameters (bounds::Params names):
//   n        samples (T = n for the one-pass Oja of Thm 2.2)     d        dimension
//   epsilon  privacy level                                      delta    privacy slack
//   zeta     failure probability                                lambda1, lambda2  top eigenvalues of Sigma
//   M, V     A.2 / A.3 constants, normalised by lambda1 and lambda1^2
//   gamma    A.4: gamma^2 = max_u ||H_u||                       K, a     A.4 tail constant and exponent
//   lr_mult  Thm 2.2's learning-rate multiplier alpha (> 1/2; renamed, Ambiguity 18)
//   B        batch size of Alg. 4 / Alg. 5 (absent: n)          H_u      ||H_u||_2 at the direction u used
//   clip_constant  C of Private Oja's threshold beta (absent: 1, Lemma 3.2's)
//   sigma    Example 4.1 noise level (x = s v + sigma g)
// kappa = lambda1/(lambda1 - lambda2) is derived, never read. The constants of "n = O~(...)"-type conditions
// are Params entries (C_n, C_eps, C_gap, C_batch) with default 1: the paper leaves them unspecified.
#include <fmt/core.h>
#include <cmath>

#include "bounds/papers.hpp"
#include "bounds/params.hpp"
#include "core/errors.hpp"

namespace dpb::bounds {
namespace {

// Lemma B.4 / Thm 5.1 / Lemma 6.2: eps must stay below this (spec: liu2022 §3.5-3.6).
constexpr double max_eps_advanced_composition = 0.9;
// Thm 2.2's xi (spec §2.1): xi = xi_factor max(kappa M alpha, kappa^2 (V+1) alpha^2 / log(1 +
// zeta/zeta_divisor)).
constexpr double xi_factor = 20;
constexpr double zeta_divisor = 100;
// Default for the unspecified constants in front of the sufficient conditions.
constexpr double default_condition_constant = 1;

constexpr double paper_zeta = 0.01;  // "with probability 0.99" (spec §1.3)
const Semantics with_probability{true, paper_zeta};

double kappa(const Params& p) {
  const double l1 = positive(p, "lambda1"), l2 = param(p, "lambda2");
  if (!(l2 >= 0 && l1 > l2))
    throw InvalidArgument(
        fmt::format("need lambda1 > lambda2 >= 0 (kappa = lambda1/(lambda1 - lambda2)); got "
                    "lambda1 = {}, lambda2 = {}",
                    l1, l2));
  return l1 / (l1 - l2);
}
double log_inv_delta(const Params& p) { return std::log(1 / unit_interval(p, "delta")); }
// A.4's K when not given: 1, as dugler2026 §8 defaults it (liu2022 fixes K only for Gaussians, where it is
// 4).
constexpr double default_tail_constant = 1;
double tail_constant(const Params& p) { return param_or(p, "K", default_tail_constant); }
// A.4's exponent a when not given: 1, Gaussian A = x x^T's (a = 1/2 for Gaussian vectors g = x).
constexpr double default_tail_exponent = 1;
double tail_exponent(const Params& p) { return param_or(p, "a", default_tail_exponent); }
double constant(const Params& p, const char* name) { return param_or(p, name, default_condition_constant); }
// The batch Alg. 4 / Alg. 5 reads: B, or n for a standalone run on all n samples (a grid over n).
double batch(const Params& p) { return p.count("B") ? positive(p, "B") : positive(p, "n"); }

// The model constants the sample-size conditions read; each data model fills them its own way.
struct ModelConstants {
  double kappa, M, V, gamma, K;
};
using ConstantsOf = ModelConstants (*)(const Params&);

// Assumption 1 read as given.
ModelConstants assumption1(const Params& p) {
  return {kappa(p), positive(p, "M"), positive(p, "V"), positive(p, "gamma"), tail_constant(p)};
}
// Remark 3.4 (spec §4.4, §7.1): Gaussian A = x x^T has V = 2 + (d-1) lambda2/lambda1, gamma^2 = 2, K = 4,
// and M = O(d log n) as a high-probability bound (Ambiguity 32), taken with constant 1.
constexpr double gaussian_K = 4;
ModelConstants gaussian(const Params& p) {
  const double d = positive(p, "d"), n = positive(p, "n");
  const double V = 2 + (d - 1) * param(p, "lambda2") / positive(p, "lambda1");
  return {kappa(p), d * std::log(n), V, std::sqrt(2.0), gaussian_K};
}
// Example 4.1 (spec §4.5, §7.2), exact [computed] values; M is not given in closed form and is read.
ModelConstants signal_plus_noise(const Params& p) {
  const double s2 = std::pow(positive(p, "sigma"), 2), d = positive(p, "d");
  const double V = ((d + 3) * s2 + (d + 1) * s2 * s2) / std::pow(1 + s2, 2);
  const double gamma = std::sqrt(s2 * (4 + 2 * s2)) / (1 + s2);
  return {1 + s2, positive(p, "M"), V, gamma, tail_constant(p)};
}

// Thm 3.3's Eq. (4): n >= C_n (kappa^2 + kappa M + kappa^2 V + d kappa (gamma + 1) log(1/delta)/eps).
Condition eq4_condition(ConstantsOf constants) {
  return {"Eq. (4)", "n >= C_n (kappa^2 + kappa M + kappa^2 V + d kappa (gamma+1) log(1/delta)/eps)",
          [constants](const Params& p) {
            const ModelConstants c = constants(p);
            const double need =
                c.kappa * c.kappa + c.kappa * c.M + c.kappa * c.kappa * c.V +
                param(p, "d") * c.kappa * (c.gamma + 1) * log_inv_delta(p) / positive(p, "epsilon");
            return positive(p, "n") >= constant(p, "C_n") * need;
          }};
}
// Lemma 3.1's privacy regime (spec §3.2, Ambiguity 34): eps <= C_eps sqrt(log(n/delta)/n).
Condition private_oja_regime() {
  return {"Lemma 3.1 regime", "eps <= C_eps sqrt(log(n/delta)/n)", [](const Params& p) {
            const double n = positive(p, "n");
            return positive(p, "epsilon") <=
                   constant(p, "C_eps") * std::sqrt(std::log(n / unit_interval(p, "delta")) / n);
          }};
}
// Thm 5.1's Eq. (9): n >= C_n (e^{kappa^2} + sqrt(d) log^{3/2}(1/delta)/eps + kappa M + kappa^2 V
//                                + d kappa gamma sqrt(log(1/delta))/eps).
Condition eq9_condition(ConstantsOf constants) {
  return {"Eq. (9)",
          "n >= C_n (e^{kappa^2} + sqrt(d) log^{3/2}(1/delta)/eps + kappa M + kappa^2 V + d kappa gamma "
          "sqrt(log(1/delta))/eps)",
          [constants](const Params& p) {
            const ModelConstants c = constants(p);
            const double d = param(p, "d"), eps = positive(p, "epsilon"), L = log_inv_delta(p);
            const double need = std::exp(c.kappa * c.kappa) + std::sqrt(d) * std::pow(L, 1.5) / eps +
                                c.kappa * c.M + c.kappa * c.kappa * c.V +
                                d * c.kappa * c.gamma * std::sqrt(L) / eps;
            return positive(p, "n") >= constant(p, "C_n") * need;
          }};
}
// Ambiguity 17: Eq. (9) omits Thm 6.1's B >= O~(K^2 d log(1/delta)/eps) for each of T = (log n)^2 batches.
Condition eigenvalue_batch_condition(ConstantsOf constants) {
  return {"Thm 6.1 batch", "n >= C_batch (log n)^2 K^2 d log(1/delta)/eps", [constants](const Params& p) {
            const double n = positive(p, "n"), K = constants(p).K;
            const double need =
                std::pow(std::log(n), 2) * K * K * param(p, "d") * log_inv_delta(p) / positive(p, "epsilon");
            return n >= constant(p, "C_batch") * need;
          }};
}
Condition small_delta() {
  return {"delta <= 1/n", "delta <= 1/n",
          [](const Params& p) { return unit_interval(p, "delta") <= 1 / positive(p, "n"); }};
}
Condition small_eps() {
  return {"eps < 0.9", "eps < 0.9 (advanced composition, Lemma B.4)",
          [](const Params& p) { return positive(p, "epsilon") < max_eps_advanced_composition; }};
}
Condition small_noise() {
  return {"sigma^2 < 1", "sigma^2 < 1 (Example 4.1)",
          [](const Params& p) { return positive(p, "sigma") < 1; }};
}

std::vector<Condition> dp_pca_conditions(ConstantsOf constants) {
  return {eq9_condition(constants), eigenvalue_batch_condition(constants), small_delta(), small_eps()};
}
std::vector<Condition> private_oja_conditions(ConstantsOf constants) {
  return {eq4_condition(constants), private_oja_regime()};
}

// Thm 2.2's xi (spec §2.1), with alpha = lr_mult.
double oja_xi(const Params& p) {
  const double k = kappa(p), a = positive(p, "lr_mult");
  const double zeta = unit_interval(p, "zeta");
  return xi_factor * std::max(k * positive(p, "M") * a,
                              k * k * (positive(p, "V") + 1) * a * a / std::log(1 + zeta / zeta_divisor));
}

const Loss sin_loss{Loss::Name::sin};
// Lemma 3.2, Thm 6.1 and Lemma 6.2 bound a statistic (a gradient norm, an eigenvalue, a mean), not an
// estimate of v1; each has a setting of its own as well.
const Loss statistic_loss{Loss::Name::statistic};

Theorem thm2_2() {
  Theorem t;
  t.id = "liu2022.thm2.2";
  t.source = "Liu, Kong, Jain, Oh 2022, Theorem 2.2 (Eq. 2), after Jain et al. 2016 Thm 4.1";
  t.loss = sin_loss;
  t.semantics = with_probability;
  t.applies = {"liu2022.oja"};
  t.rate = [](const Params& p) {
    const double k = kappa(p), a = positive(p, "lr_mult"), n = positive(p, "n");
    return std::sqrt(a * a * k * k * positive(p, "V") / ((2 * a - 1) * n) +
                     positive(p, "d") * std::pow(oja_xi(p) / n, 2 * a));
  };
  t.conditions = {
      {"alpha > 1/2", "learning-rate multiplier lr_mult > 1/2",
       [](const Params& p) { return positive(p, "lr_mult") > 0.5; }},
      {"T > xi", "n > xi = 20 max(kappa M alpha, kappa^2 (V+1) alpha^2 / log(1 + zeta/100)) (Ambiguity 5)",
       [](const Params& p) { return positive(p, "n") > oja_xi(p); }}};
  t.latex =
      R"(\sin(w_T, v_1) \lesssim \sqrt{\frac{\alpha^2\kappa^2 V}{(2\alpha-1)T} + d\left(\frac{\xi}{T}\right)^{2\alpha}})";
  t.hides = "the factor C log(1/zeta)/zeta^2 in front of sin^2";
  t.setting = "liu2022.assumption1";
  t.example = {{"n", 1e8}, {"d", 10}, {"lambda1", 2}, {"lambda2", 1},
               {"M", 5},   {"V", 3},  {"zeta", 0.01}, {"lr_mult", 1}};
  return t;
}

Theorem lem3_2() {
  Theorem t;
  t.id = "liu2022.lem3.2";
  t.source = "Liu, Kong, Jain, Oh 2022, Lemma 3.2 (Eqs. 46-48): no clipping in Private Oja";
  t.loss = statistic_loss;
  t.semantics = with_probability;
  t.applies = {"liu2022.private_oja"};
  // The bound on max_t ||A_t w_{t-1}||, which is the clipping threshold beta (C = 1 suffices, spec §4.2).
  t.rate = [](const Params& p) {
    return positive(p, "lambda1") * std::sqrt(positive(p, "d")) *
           (tail_constant(p) * positive(p, "gamma") + 1);
  };
  // Explicit: max_t ||A_t w_{t-1}|| / beta <= 1/C for the algorithm's threshold beta = C x the bound (the
  // metric diagnostic.max_gradient_over_clip); beta's log(2nd/zeta) (Ambiguity 1) only loosens it.
  t.explicit_value = [](const Params& p) { return 1 / param_or(p, "clip_constant", 1); };
  t.latex = R"(\max_t \|A_t w_{t-1}\| \le \lambda_1\sqrt{d}\,(K\gamma\log^a(nd/\zeta) + 1))";
  t.hides =
      "log^a(nd/zeta) on K gamma; the rate is the norm bound itself, not an estimation error; explicit value: "
      "1/C on max_t ||A_t w_{t-1}|| / beta";
  t.setting = "liu2022.clipping";
  t.example = {{"lambda1", 2}, {"d", 10}, {"K", 4}, {"gamma", 1.5}};
  return t;
}

Theorem thm3_3() {
  Theorem t;
  t.id = "liu2022.thm3.3";
  t.source = "Liu, Kong, Jain, Oh 2022, Theorem 3.3 (Eq. 5; explicit form Eqs. 53-55)";
  t.loss = sin_loss;
  t.semantics = with_probability;
  t.applies = {"liu2022.private_oja"};
  t.rate = [](const Params& p) {
    const double n = positive(p, "n");
    return kappa(p) * (std::sqrt(positive(p, "V") / n) + (positive(p, "gamma") + 1) * positive(p, "d") *
                                                             log_inv_delta(p) / (positive(p, "epsilon") * n));
  };
  t.conditions = private_oja_conditions(assumption1);
  t.latex =
      R"(\sin(w_n, v_1) = \tilde O\left(\kappa\left(\sqrt{\frac{V}{n}} + \frac{(\gamma+1)\,d\log(1/\delta)}{\varepsilon n}\right)\right))";
  t.hides =
      "polylogs in n, d, 1/eps, log(1/delta); poly(K); the factor C log(1/zeta)/zeta^2 of the explicit form";
  t.setting = "liu2022.assumption1";
  t.example = {{"n", 1e6},     {"d", 10}, {"epsilon", 5e-3}, {"delta", 1e-6}, {"lambda1", 2},
               {"lambda2", 1}, {"M", 5},  {"V", 3},      {"gamma", 1}};
  return t;
}

Theorem eq6() {
  Theorem t = thm3_3();
  t.id = "liu2022.eq6";
  t.source = "Liu, Kong, Jain, Oh 2022, Remark 3.4, Eq. (6): Private Oja on Gaussian data";
  t.rate = [](const Params& p) {
    const double n = positive(p, "n"), d = positive(p, "d");
    return kappa(p) * (std::sqrt(d / n) + d * log_inv_delta(p) / (positive(p, "epsilon") * n));
  };
  t.conditions = private_oja_conditions(gaussian);
  t.latex =
      R"(\sin(w_n, v_1) = \tilde O\left(\kappa\left(\sqrt{\frac{d}{n}} + \frac{d\log(1/\delta)}{\varepsilon n}\right)\right))";
  t.setting = "liu2022.gaussian";
  t.example = {{"n", 1e6}, {"d", 20}, {"epsilon", 5e-3}, {"delta", 1e-6}, {"lambda1", 2}, {"lambda2", 1}};
  return t;
}

Theorem thm5_1() {
  Theorem t;
  t.id = "liu2022.thm5.1";
  t.source = "Liu, Kong, Jain, Oh 2022, Theorem 5.1 (Eq. 10; explicit form Eq. 62)";
  t.loss = sin_loss;
  t.semantics = with_probability;
  t.applies = {"liu2022.dp_pca"};
  t.rate = [](const Params& p) {
    const double n = positive(p, "n");
    return kappa(p) *
           (std::sqrt(positive(p, "V") / n) +
            positive(p, "gamma") * positive(p, "d") * std::sqrt(log_inv_delta(p)) / (positive(p, "epsilon") * n));
  };
  t.conditions = dp_pca_conditions(assumption1);
  t.latex =
      R"(\sin(w_T, v_1) = \tilde O\left(\kappa\left(\sqrt{\frac{V}{n}} + \frac{\gamma d\sqrt{\log(1/\delta)}}{\varepsilon n}\right)\right))";
  t.hides = "polylogs in n, d, 1/eps, log(1/delta); poly(K); the factor C log(1/zeta)/zeta^2 of Eq. (62)";
  t.setting = "liu2022.assumption1";
  t.example = {{"n", 1e7},     {"d", 10}, {"epsilon", 0.5}, {"delta", 1e-8}, {"lambda1", 2},
               {"lambda2", 1}, {"M", 5},  {"V", 3},     {"gamma", 1},    {"K", 4}};
  return t;
}

Theorem cor5_2() {
  Theorem t = thm5_1();
  t.id = "liu2022.cor5.2";
  t.source = "Liu, Kong, Jain, Oh 2022, Corollary 5.2 (Eq. 11): DP-PCA on Gaussian data";
  t.rate = [](const Params& p) {
    const double n = positive(p, "n"), d = positive(p, "d");
    return kappa(p) * (std::sqrt(d / n) + d * std::sqrt(log_inv_delta(p)) / (positive(p, "epsilon") * n));
  };
  t.conditions = dp_pca_conditions(gaussian);
  t.latex =
      R"(\sin(w_T, v_1) = \tilde O\left(\kappa\left(\sqrt{\frac{d}{n}} + \frac{d\sqrt{\log(1/\delta)}}{\varepsilon n}\right)\right))";
  t.setting = "liu2022.gaussian";
  t.example = {{"n", 1e7}, {"d", 20}, {"epsilon", 0.5}, {"delta", 1e-8}, {"lambda1", 2}, {"lambda2", 1}};
  return t;
}

Theorem thm6_1() {
  Theorem t;
  t.id = "liu2022.thm6.1";
  t.source = "Liu, Kong, Jain, Oh 2022, Theorem 6.1 (Eq. 14): private top-eigenvalue estimation (Alg. 4)";
  t.loss = statistic_loss;
  t.semantics = with_probability;
  t.applies = {"liu2022.private_top_eigenvalue"};
  // Lambda_hat in [2^{-1/2}, 2^{1/2}] lambda1^2 ||H_u||: the error scale is lambda1^2 ||H_u||.
  t.rate = [](const Params& p) { return std::pow(positive(p, "lambda1"), 2) * positive(p, "H_u"); };
  // Eq. (14) as printed before its O~: the polylog factor is ~10^3 at simulable sizes (spec §4.8), so the
  // O~ form would admit batches where the histogram still releases nothing.
  t.conditions = {{"Eq. (14)",
                   "B >= C_batch K^2 d log^{1+2a}(n d log(1/(delta zeta))/eps) log(1/(zeta delta))/eps",
                   [](const Params& p) {
                     const double K = tail_constant(p), d = positive(p, "d"), eps = positive(p, "epsilon");
                     const double log_inv = std::log(1 / (unit_interval(p, "delta") * unit_interval(p, "zeta")));
                     const double n = param_or(p, "n", batch(p));
                     const double polylog = std::pow(std::log(n * d * log_inv / eps), 1 + 2 * tail_exponent(p));
                     return batch(p) >= constant(p, "C_batch") * K * K * d * polylog * log_inv / eps;
                   }}};
  // Explicit: the containment itself, |log2(Lambda_hat / (lambda1^2 ||H_u||))| <= 1/2 (the metric
  // scalar_log2_ratio, on vectors g_i = x_i where lambda1^2 ||H_u|| = lambda_max(Cov g)).
  t.explicit_value = [](const Params&) { return 0.5; };
  t.latex = R"(2^{-1/2}\lambda_1^2\|H_u\| \le \hat\Lambda \le 2^{1/2}\lambda_1^2\|H_u\|)";
  t.hides =
      "the constant of the batch condition; the rate is the scale lambda1^2 ||H_u|| of a multiplicative 2^{1/2} "
      "guarantee; explicit value: 1/2 on |log2(Lambda_hat / "
      "(lambda1^2 ||H_u||))|";
  t.setting = "liu2022.gradient_top_eigenvalue";
  t.example = {{"B", 1e8}, {"d", 10}, {"epsilon", 0.5}, {"delta", 1e-6}, {"zeta", 0.01}, {"K", 4}, {"lambda1", 2}, {"H_u", 1}};
  return t;
}

Theorem lem6_2() {
  Theorem t;
  t.id = "liu2022.lem6.2";
  t.source =
      "Liu, Kong, Jain, Oh 2022, Lemma 6.2: private mean estimation (Alg. 5), given Lambda_hat in "
      "[2^{-1/2}, 2^{1/2}] lambda1^2 ||H_u||";
  t.loss = statistic_loss;
  t.semantics = with_probability;
  t.applies = {"liu2022.private_mean"};
  // No truncation, so the error is the Gaussian noise: per-coordinate std ~ sqrt(Lambda_hat) sqrt(d
  // log(1/delta))/(eps B), l2 norm sqrt(d) times that, sqrt(Lambda_hat) ~ lambda1 sqrt(||H_u||).
  t.rate = [](const Params& p) {
    return positive(p, "lambda1") * std::sqrt(positive(p, "H_u")) * positive(p, "d") *
           std::sqrt(log_inv_delta(p)) / (positive(p, "epsilon") * batch(p));
  };
  t.conditions = {
      small_eps(),
      {"delta <= 1/B", "delta <= 1/B",
       [](const Params& p) { return unit_interval(p, "delta") <= 1 / batch(p); }},
      {"B-condition", "B >= C_batch (sqrt(d log(1/delta))/eps) log(d/(zeta delta)) ([003], Ambiguity 33)",
       [](const Params& p) {
         const double d = positive(p, "d"), delta = unit_interval(p, "delta");
         const double need = std::sqrt(d * log_inv_delta(p)) / positive(p, "epsilon") *
                             std::log(d / (unit_interval(p, "zeta") * delta));
         return batch(p) >= constant(p, "C_batch") * need;
       }}};
  t.latex =
      R"(\|\hat\mu - \bar g\| = \tilde O\left(\frac{\lambda_1\sqrt{\|H_u\|}\, d\sqrt{\log(1/\delta)}}{\varepsilon B}\right))";
  t.hides = "K log^a(Bd/zeta) and the constant 12 of the noise scale";
  t.setting = "liu2022.gradient_mean";
  t.example = {{"B", 1e4},     {"d", 10},      {"epsilon", 0.5}, {"delta", 1e-6},
               {"zeta", 0.01}, {"lambda1", 2}, {"H_u", 1}};
  return t;
}

Theorem eq3() {
  Theorem t;
  t.id = "liu2022.eq3";
  t.source = "Liu, Kong, Jain, Oh 2022, Eq. (3): Analyze-Gauss (Sec. 2.3, [10, 15, 24])";
  t.loss = sin_loss;
  t.semantics = with_probability;
  t.applies = {"baseline.dp_gauss_1"};
  t.rate = [](const Params& p) {
    const double n = positive(p, "n"), d = positive(p, "d");
    return kappa(p) *
           (std::sqrt(d / n) + std::pow(d, 1.5) * std::sqrt(log_inv_delta(p)) / (positive(p, "epsilon") * n));
  };
  t.conditions = {{"gap",
                   "lambda1 - lambda2 >= C_gap d^{3/2} sqrt(log(1/delta))/(eps n) (the printed omega(.))",
                   [](const Params& p) {
                     const double need = std::pow(positive(p, "d"), 1.5) * std::sqrt(log_inv_delta(p)) /
                                         (positive(p, "epsilon") * positive(p, "n"));
                     return positive(p, "lambda1") - param(p, "lambda2") >= constant(p, "C_gap") * need;
                   }}};
  t.latex =
      R"(\sin(\hat v, v_1) = \tilde O\left(\kappa\left(\sqrt{\frac{d}{n}} + \frac{d^{3/2}\sqrt{\log(1/\delta)}}{\varepsilon n}\right)\right))";
  t.hides = "polylogs in n and 1/zeta (from the norm bound beta = O(sqrt(lambda1 d log(n/zeta))))";
  t.setting = "liu2022.gaussian";
  // Privacy-dominated (d^{3/2}/(eps n) > sqrt(d/n)), where Eq. (3) loses d^{1/2} against Thm 5.3.
  t.example = {{"n", 1e5}, {"d", 100}, {"epsilon", 0.5}, {"delta", 1e-6}, {"lambda1", 2}, {"lambda2", 1}};
  return t;
}

Theorem example41_private_oja() {
  Theorem t;
  t.id = "liu2022.ex4.1.private_oja";
  t.source = "Liu, Kong, Jain, Oh 2022, Example 4.1, Eq. (8): Private Oja on x = s v + sigma g";
  t.loss = sin_loss;
  t.semantics = with_probability;
  t.applies = {"liu2022.private_oja"};
  // Eq. (8) bounds sin^2 by sigma^2 d/n + d^2 log(1/delta)/(eps^2 n^2) (printed with log, Ambiguity 19).
  t.rate = [](const Params& p) {
    const double n = positive(p, "n"), d = positive(p, "d");
    return positive(p, "sigma") * std::sqrt(d / n) +
           d * std::sqrt(log_inv_delta(p)) / (positive(p, "epsilon") * n);
  };
  t.conditions = private_oja_conditions(signal_plus_noise);
  t.conditions.push_back(small_noise());
  t.latex =
      R"(\sin(w_n, v) = \tilde O\left(\sigma\sqrt{\frac{d}{n}} + \frac{d\sqrt{\log(1/\delta)}}{\varepsilon n}\right))";
  t.hides = "polylogs in n, d, 1/eps, log(1/delta); the privacy term does not vanish as sigma -> 0";
  t.setting = "liu2022.signal_plus_noise";
  t.example = {{"n", 1e6}, {"d", 10}, {"epsilon", 5e-3}, {"delta", 1e-6}, {"sigma", 0.5}, {"M", 5}};
  return t;
}

Theorem example41_dp_pca() {
  Theorem t = example41_private_oja();
  t.id = "liu2022.ex4.1.dp_pca";
  t.source = "Liu, Kong, Jain, Oh 2022, Example 4.1 under Theorem 5.1 (Sec. 5): DP-PCA on x = s v + sigma g";
  t.applies = {"liu2022.dp_pca"};
  t.rate = [](const Params& p) {
    const double n = positive(p, "n"), d = positive(p, "d");
    return positive(p, "sigma") *
           (std::sqrt(d / n) + d * std::sqrt(log_inv_delta(p)) / (positive(p, "epsilon") * n));
  };
  t.conditions = dp_pca_conditions(signal_plus_noise);
  t.conditions.push_back(small_noise());
  t.latex =
      R"(\sin(w_T, v) = \tilde O\left(\sigma\sqrt{\frac{d}{n}} + \frac{\sigma d\sqrt{\log(1/\delta)}}{\varepsilon n}\right))";
  t.hides = "polylogs in n, d, 1/eps, log(1/delta); poly(K); the error vanishes as sigma -> 0";
  t.example = {{"n", 1e7}, {"d", 10}, {"epsilon", 0.5}, {"delta", 1e-8}, {"sigma", 0.5}, {"M", 5}, {"K", 4}};
  return t;
}

}  // namespace

std::vector<Theorem> liu2022_upper_bounds() {
  return {thm2_2(),          lem3_2(), thm3_3(), eq6(), thm5_1(),
          cor5_2(),          thm6_1(), lem6_2(), eq3(), example41_private_oja(),
          example41_dp_pca()};
}

}  // namespace dpb::bounds
