// cai2024 upper bounds (spec: cai2024-spiked-dp-pca.md §4, §7; theorem numbering per spec A4).
//
// Parameters (the spec's names; bounds/cai2024_model.hpp reads them, with the verifier's aliases):
//   n, p (alias d), r (alias k), lambda (the largest spike, excluding sigma^2), sigma2, epsilon, delta
//   kappa0     lambda_1 / lambda_r of the spikes (Cor 1; Theta's bounded condition number; absent = 1)
//   R          the private rank's postulated upper bound on r (§7.1; absent = 10, the registry default)
// Unspecified absolute constants are Params entries too, with the defaults below (override by name):
//   C1 (standing conditions C-n, C-SNR and Cor 1/2's), c2 (C-exp), C0 (Theta's condition-number bound),
//   c0 (Thm 5.2's condition (12)), rank_bound (Thm 5.1's bounded rank, the spec's C5 there),
//   C0_rank (§7.1's SNR constant), C0_spike and C1_spike (§7.2's constants).
//
// Losses: every "for all q in [1, inf]" claim is stated for ||.||_q / r^{1/q}; its rate does not depend on q,
// so each such claim is one Theorem per exposed q (1, 2, inf), suffix .q1/.q2/.qinf, with the loss that
// names that norm; the lower bounds (lowerbounds/cai2024.cpp) use the same losses, so `gaps` pairs them.
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "bounds/cai2024_model.hpp"
#include "bounds/papers.hpp"
#include "bounds/params.hpp"

namespace dpb::bounds {

namespace {

using namespace cai2024;  // the model the lower bounds read too

// Defaults of the unspecified constants (spec §1.3, §4.7: "a moderate C1 (e.g. 2-5)"; C-exp is "harmless in
// practice", i.e. c2 need not be tiny; Theta needs C0 >= 2 for Thm 4.2's construction).
constexpr double kC1 = 2;
constexpr double kC2Exp = 0.5;
constexpr double kConditionNumberBound = 2;  // C0 of Theta (eq. 4)
constexpr double kCondition12 = 0.1;         // c0 of Thm 5.2's condition (12)
constexpr double kBoundedRank = 10;          // Thm 5.1: r <= C5
constexpr double kRankSnr = 1;               // §7.1: C0
constexpr double kSpikeSampleSize = 1;       // §7.2: C0 in n eps >= C0 (r + log n)
constexpr double kSpikeSnr = 1;              // §7.2: C1
constexpr double kDefaultRankBound = 10;     // §7.1: R, as cai2024.private_rank's registry default
// Lemma 1's classical calibration needs each release's eps < 1 (A20).
constexpr double kClassicalReleaseEps = 1;
constexpr double kInf = std::numeric_limits<double>::infinity();

double condition_number(const Params& x) { return param_or(x, "kappa0", 1); }

// phi = sigma^2/lambda + sqrt(sigma^2/lambda) (spec §4), for the spike that sets the eigengap.
double phi(double sigma2, double spike) { return sigma2 / spike + std::sqrt(sigma2 / spike); }

// The two privacy terms of Algorithm 1: p sqrt(r + log n) sqrt(L) / (n eps) (Util, Delta1) and
// (r + log n)^{3/2} sqrt(L) / (n eps) (Lamtil, Delta2). The latter is the envelope of eq. (15)'s ||E||,
// which the spec (§4.2) recommends over the printed sqrt(r)(r + log n): they differ only when log n > r.
double projector_privacy(const Point& x, double log_term) {
  return x.p * std::sqrt(x.r + x.log_n()) * std::sqrt(log_term) / (x.n * x.eps);
}
double eigenvalue_privacy(const Point& x, double log_term) {
  return std::pow(x.r + x.log_n(), 1.5) * std::sqrt(log_term) / (x.n * x.eps);
}

// The statistical dimension term: sqrt(p/n), or sqrt(p log p / n) for sub-Gaussian data (Cor 2).
enum class Tails { gaussian, subgaussian };
double statistical(const Point& x, Tails tails) {
  return std::sqrt(x.p * (tails == Tails::gaussian ? 1.0 : std::log(x.p)) / x.n);
}

// lambda_top (sqrt(r/n) + eigenvalue privacy) + sqrt(sigma^2 (lambda_top + sigma^2)) (stat + projector
// privacy).
double covariance_rate(const Point& x, double lambda_top, double log_term, Tails tails) {
  return lambda_top * (std::sqrt(x.r / x.n) + eigenvalue_privacy(x, log_term)) +
         std::sqrt(x.sigma2 * (lambda_top + x.sigma2)) *
             (statistical(x, tails) + projector_privacy(x, log_term));
}

double log_delta_halves(const Point& x) { return std::log(2.5 / x.delta); }  // L_delta: Algorithm 1's halves
double log_delta_thirds(const Point& x) { return std::log(4 / x.delta); }    // Thm 5.2's printed log(4/delta)

// ---- conditions (spec §1.3 standing conditions, §4.4-4.6, §7) ----

Condition sample_size() {
  return {"C-n", "n >= C1 (r log n + log^2 n)   [C1 default 2]", [](const Params& x) {
            const Point s = read_point(x);
            return s.n >= param_or(x, "C1", kC1) * (s.r * s.log_n() + s.log_n() * s.log_n());
          }};
}
Condition signal_to_noise() {
  return {"C-SNR", "lambda / sigma^2 >= C1 (p/n + sqrt(p/n))   [C1 default 2]", [](const Params& x) {
            const Point s = read_point(x);
            return s.lambda / s.sigma2 >= param_or(x, "C1", kC1) * (s.p / s.n + std::sqrt(s.p / s.n));
          }};
}
Condition bounded_condition_number() {
  return {"Theta", "kappa0 = lambda_1/lambda_r <= C0 (eq. 4: bounded condition number)   [C0 default 2]",
          [](const Params& x) { return condition_number(x) <= param_or(x, "C0", kConditionNumberBound); }};
}
Condition expectation_range() {
  return {"C-exp", "lambda / sigma^2 <= (p/n) exp(c2 (n ∧ p))   [c2 default 0.5]", [](const Params& x) {
            const Point s = read_point(x);
            return s.lambda / s.sigma2 <=
                   s.p / s.n * std::exp(param_or(x, "c2", kC2Exp) * std::min(s.n, s.p));
          }};
}
// Each Gaussian release gets eps / releases; Lemma 1's classical calibration is proved for eps < 1 (A20).
Condition classical_calibration(int releases) {
  return {"classical calibration",
          "eps / " + std::to_string(releases) +
              " < 1 per release (Lemma 1, spec A20; the estimator refuses otherwise)",
          [releases](const Params& x) { return read_point(x).eps / releases < kClassicalReleaseEps; }};
}

std::vector<Condition> standing_conditions(int releases) {
  return {sample_size(), rank_half_dimension(), signal_to_noise(), bounded_condition_number(),
          classical_calibration(releases)};
}

// The failure probability e^{-c(n∧p)} + n^{-99} is far below 0.01.
Semantics high_probability() { return {true, 0.01}; }
Semantics expectation() { return {false, 0.0}; }

const char* const kSubgaussianSetting = "cai2024.spiked_subgaussian";
const char* const kGeneralSpikesSetting = "cai2024.spiked_covariance_general_spikes";
const char* const kAlgorithmOne = "cai2024.gaussian_mechanism";
const char* const kPrivateSigma2 = "cai2024.gaussian_mechanism_private_sigma2";

// p = 50, r = 2, lambda = 10, sigma^2 = 1, eps = 1, delta = 0.1 (spec §6 Fig. 1) at n = 20000.
Params example_point() {
  return {{"n", 20000}, {"p", 50}, {"r", 2}, {"lambda", 10}, {"sigma2", 1}, {"epsilon", 1}, {"delta", 0.1}};
}

const char* const kPhiTex = "\\Big(\\frac{\\sigma^2}{\\lambda} + \\sqrt{\\frac{\\sigma^2}{\\lambda}}\\Big)";

const char* const kHides =
    "absolute constants only (C2, C3 of Delta1, Delta2 and the theorem's C); the log n and log(1/delta) "
    "factors are kept";

// ---- Algorithm 1's claims (Thm 3.1/3.2, Cor 1/2, Thm 5.2): projector and covariance bounds ----

// How the budget is split sets the log factor L of both privacy terms, in the rate and in the LaTeX.
struct Budget {
  double (*log_term)(const Point&);
  const char* tex;  // the argument of log in L
};
const Budget kHalves{log_delta_halves, "2.5/\\delta"};  // Algorithm 1
const Budget kThirds{log_delta_thirds, "4/\\delta"};    // Thm 5.2 (a third goes to sigma^2)

const char* statistical_tex(Tails tails) {
  return tails == Tails::gaussian ? "\\sqrt{p/n}" : "\\sqrt{p\\log p/n}";
}

// What a claim states besides its loss, rate and formula.
struct Claim {
  std::string id;
  std::string source;
  Semantics semantics;
  const char* algorithm;
  Tails tails;
  Budget budget;
  std::vector<Condition> conditions;
  const char* setting;
  Params example;
};

Theorem claim_theorem(Claim c, Loss loss) {
  Theorem t;
  t.id = std::move(c.id);
  t.source = std::move(c.source);
  t.kind = Kind::upper;
  t.loss = loss;
  t.semantics = c.semantics;
  t.applies = {c.algorithm};
  t.conditions = std::move(c.conditions);
  t.hides = kHides;
  t.setting = c.setting;
  t.example = std::move(c.example);
  return t;
}

// The eigengap factor in front of a projector bound.
struct PcaFactor {
  double (*value)(const Params& x, const Point& s);
  const char* tex;
};
const PcaFactor kPhi{[](const Params&, const Point& s) { return phi(s.sigma2, s.lambda); }, kPhiTex};

// factor (statistical + projector privacy).
Theorem pca_bound(const SchattenVariant& v, Claim c, PcaFactor factor) {
  const Tails tails = c.tails;
  const Budget budget = c.budget;
  Theorem t = claim_theorem(std::move(c), normalized(v.projector, v.q));
  t.rate = [factor, tails, budget](const Params& x) {
    const Point s = read_point(x);
    return factor.value(x, s) * (statistical(s, tails) + projector_privacy(s, budget.log_term(s)));
  };
  t.latex = std::string("\\frac{\\|\\tilde U\\tilde U^\\top - UU^\\top\\|_{") + v.tex + "}}{r^{1/" + v.tex +
            "}} \\lesssim " + factor.tex + "\\Big(" + statistical_tex(tails) +
            " + \\frac{p\\sqrt{(r + \\log n)\\log(" + budget.tex + ")}}{n\\varepsilon}\\Big)";
  return t;
}

// covariance_rate with lambda_top = lambda; `top_tex` names lambda_top in the formula.
Theorem covariance_bound(const SchattenVariant& v, Claim c, const std::string& top_tex) {
  const Tails tails = c.tails;
  const Budget budget = c.budget;
  Theorem t = claim_theorem(std::move(c), normalized(v.covariance, v.q));
  t.rate = [tails, budget](const Params& x) {
    const Point s = read_point(x);
    return covariance_rate(s, s.lambda, budget.log_term(s), tails);
  };
  t.latex = std::string("\\frac{\\|\\tilde\\Sigma - \\Sigma\\|_{") + v.tex + "}}{r^{1/" + v.tex +
            "}} \\lesssim " + top_tex + "\\Big(\\sqrt{r/n} + \\frac{(r + \\log n)^{3/2}\\sqrt{\\log(" +
            budget.tex + ")}}{n\\varepsilon}\\Big) + \\sqrt{\\sigma^2(" + top_tex + " + \\sigma^2)}\\Big(" +
            statistical_tex(tails) + " + \\frac{p\\sqrt{(r + \\log n)\\log(" + budget.tex +
            ")}}{n\\varepsilon}\\Big)";
  return t;
}

// ---- Thm 3.1 / 3.2 (Algorithm 1; spec §4.1, §4.2) ----

// Both are claimed w.h.p. and, under C-exp, in expectation.
Claim thm3_claim(const std::string& id, const std::string& source, bool in_expectation) {
  Claim c{id + (in_expectation ? ".expectation" : ""),
          source,
          in_expectation ? expectation() : high_probability(),
          kAlgorithmOne,
          Tails::gaussian,
          kHalves,
          standing_conditions(2),
          kSetting,
          example_point()};
  if (in_expectation) c.conditions.push_back(expectation_range());
  return c;
}

Theorem thm3_1(const SchattenVariant& v, bool in_expectation) {
  return pca_bound(
      v,
      thm3_claim(std::string("cai2024.thm3.1.") + v.suffix,
                 std::string("Cai, Xia, Zha 2024, Theorem 3.1 (DP PCA upper bound; ") +
                     (in_expectation ? "expectation claim under C-exp" : "w.p. >= 1 - e^{-c1(n∧p)}") + ")",
                 in_expectation),
      kPhi);
}

Theorem thm3_2(const SchattenVariant& v, bool in_expectation) {
  return covariance_bound(
      v,
      thm3_claim(
          std::string("cai2024.thm3.2.") + v.suffix,
          std::string("Cai, Xia, Zha 2024, Theorem 3.2 (DP covariance upper bound; ") +
              (in_expectation ? "expectation claim under C-exp" : "w.p. >= 1 - 3n^{-99} - e^{-c1(n∧p)}") +
              "; privacy envelope (r + log n)^{3/2} of eq. (15))",
          in_expectation),
      "\\lambda");
}

// C-exp with the corollaries' extra 1/C1; `spike` names the largest spike in the text.
Condition corollary_upper_snr(const std::string& name, const std::string& spike) {
  return {name, spike + " / sigma^2 <= (p/n) exp(c2 (n ∧ p)) / C1   [c2 default 0.5, C1 default 2]",
          [](const Params& x) {
            const Point s = read_point(x);
            return s.lambda / s.sigma2 <= s.p / s.n *
                                              std::exp(param_or(x, "c2", kC2Exp) * std::min(s.n, s.p)) /
                                              param_or(x, "C1", kC1);
          }};
}

// ---- Corollary 1 (diverging condition number; spec §4.4) ----

// lambda_1 = lambda (the largest spike), lambda_r = lambda / kappa0.
Condition cor1_sample_size() {
  return {"C-n (Cor 1)", "n >= C1 (kappa0^2 r log n + log^2 n)   [C1 default 2]", [](const Params& x) {
            const Point s = read_point(x);
            const double k = condition_number(x);
            return s.n >= param_or(x, "C1", kC1) * (k * k * s.r * s.log_n() + s.log_n() * s.log_n());
          }};
}
Condition cor1_lower_snr() {
  return {"C-SNR (Cor 1)", "lambda_r / sigma^2 >= C1 (kappa0 p/n + sqrt(p/n))   [C1 default 2]",
          [](const Params& x) {
            const Point s = read_point(x);
            const double k = condition_number(x);
            return s.lambda / k / s.sigma2 >= param_or(x, "C1", kC1) * (k * s.p / s.n + std::sqrt(s.p / s.n));
          }};
}

Claim cor1_claim(const std::string& id, const std::string& source) {
  Params example = example_point();
  example["r"] = 3;
  example["kappa0"] = 4;
  example["n"] = 50000;
  return {id,
          source,
          expectation(),
          kAlgorithmOne,
          Tails::gaussian,
          kHalves,
          {cor1_sample_size(), rank_half_dimension(), corollary_upper_snr("C-exp (Cor 1)", "lambda_1"),
           cor1_lower_snr(), classical_calibration(2)},
          kGeneralSpikesSetting,
          example};
}

// sigma^2/lambda_r + sqrt(sigma^2 lambda_1)/lambda_r in place of phi.
const PcaFactor kCor1Factor{
    [](const Params& x, const Point& s) {
      const double lambda_r = s.lambda / condition_number(x);
      return s.sigma2 / lambda_r + std::sqrt(s.sigma2 * s.lambda) / lambda_r;
    },
    "\\Big(\\frac{\\sigma^2}{\\lambda_r} + \\frac{\\sqrt{\\sigma^2\\lambda_1}}{\\lambda_r}\\Big)"};

Theorem cor1_pca(const SchattenVariant& v) {
  return pca_bound(
      v,
      cor1_claim(
          std::string("cai2024.cor1.pca.") + v.suffix,
          "Cai, Xia, Zha 2024, Corollary 1 (diverging condition number kappa0 = lambda_1/lambda_r; PCA)"),
      kCor1Factor);
}

Theorem cor1_covariance(const SchattenVariant& v) {
  return covariance_bound(
      v,
      cor1_claim(std::string("cai2024.cor1.cov.") + v.suffix,
                 "Cai, Xia, Zha 2024, Corollary 1 (diverging condition number; covariance; "
                 "privacy envelope (r + log n)^{3/2})"),
      "\\lambda_1");
}

// ---- Corollary 2 (sub-Gaussian data; spec §4.5) ----

Condition cor2_sample_size() {
  return {"C-n (Cor 2)", "n >= C1 (r log(p + n) log^2 r + log^2 n)   [C1 default 2]", [](const Params& x) {
            const Point s = read_point(x);
            const double log_r = std::log(s.r);
            return s.n >= param_or(x, "C1", kC1) *
                              (s.r * std::log(s.p + s.n) * log_r * log_r + s.log_n() * s.log_n());
          }};
}
Condition cor2_lower_snr() {
  return {"C-SNR (Cor 2)", "lambda / sigma^2 >= C1 (p/n + sqrt(p/n)) log(p + n)   [C1 default 2]",
          [](const Params& x) {
            const Point s = read_point(x);
            return s.lambda / s.sigma2 >=
                   param_or(x, "C1", kC1) * (s.p / s.n + std::sqrt(s.p / s.n)) * std::log(s.p + s.n);
          }};
}

Claim cor2_claim(const std::string& id, const std::string& source) {
  return {id,
          source,
          expectation(),
          kAlgorithmOne,
          Tails::subgaussian,
          kHalves,
          {cor2_sample_size(), rank_half_dimension(), corollary_upper_snr("C-exp (Cor 2)", "lambda"),
           cor2_lower_snr(), bounded_condition_number(), classical_calibration(2)},
          kSubgaussianSetting,
          example_point()};
}

Theorem cor2_pca(const SchattenVariant& v) {
  return pca_bound(
      v,
      cor2_claim(std::string("cai2024.cor2.pca.") + v.suffix,
                 "Cai, Xia, Zha 2024, Corollary 2 (sub-Gaussian data, psi2-norm reading of A11; PCA)"),
      kPhi);
}

Theorem cor2_covariance(const SchattenVariant& v) {
  return covariance_bound(v,
                          cor2_claim(std::string("cai2024.cor2.cov.") + v.suffix,
                                     "Cai, Xia, Zha 2024, Corollary 2 (sub-Gaussian data; covariance; "
                                     "privacy envelope (r + log n)^{3/2})"),
                          "\\lambda");
}

// ---- Thm 5.2 (Algorithm 1 with private sigma^2, budget in thirds; spec §4.6, A6, A6b) ----

Condition bounded_rank() {
  return {"bounded rank (Thm 5.1)", "r <= C5   [C5 = rank_bound, default 10]",
          [](const Params& x) { return read_point(x).r <= param_or(x, "rank_bound", kBoundedRank); }};
}
// Condition (12) with the eps factor the derivation needs in its first inequality (spec A6b).
Condition condition_12_signal() {
  return {
      "(12a)",
      "lambda/sigma^2 <= c0 n eps sqrt((p∧n)/log n) / ((r + log n) sqrt(log(4/delta)))   [c0 default 0.1; "
      "eps factor per spec A6b]",
      [](const Params& x) {
        const Point s = read_point(x);
        const double bound = param_or(x, "c0", kCondition12) * s.n * s.eps *
                             std::sqrt(std::min(s.p, s.n) / s.log_n()) /
                             ((s.r + s.log_n()) * std::sqrt(log_delta_thirds(s)));
        return s.lambda / s.sigma2 <= bound;
      }};
}
Condition condition_12_dimension() {
  return {"(12b)", "(p/n) sqrt(log n / (p∧n)) <= c0 eps / sqrt(log(4/delta))   [c0 default 0.1]",
          [](const Params& x) {
            const Point s = read_point(x);
            return s.p / s.n * std::sqrt(s.log_n() / std::min(s.p, s.n)) <=
                   param_or(x, "c0", kCondition12) * s.eps / std::sqrt(log_delta_thirds(s));
          }};
}

Claim thm5_2_claim(const std::string& id, const std::string& source) {
  Claim c{id,
          source,
          high_probability(),
          kPrivateSigma2,
          Tails::gaussian,
          kThirds,
          standing_conditions(3),
          kSetting,
          example_point()};
  c.conditions.push_back(bounded_rank());
  c.conditions.push_back(condition_12_signal());
  c.conditions.push_back(condition_12_dimension());
  return c;
}

Theorem thm5_2_pca() {
  return pca_bound(kVariants[1],  // stated in Frobenius norm
                   thm5_2_claim("cai2024.thm5.2.pca.q2",
                                "Cai, Xia, Zha 2024, Theorem 5.2 (private sigma^2 plug-in; ||.||_F <= C phi "
                                "(sqrt(pr/n) + p sqrt(r(r + log n) log(4/delta))/(n eps)), here divided by "
                                "sqrt(r); w.p. >= 1 - e^{-c(n∧p)} - 4n^{-99})"),
                   kPhi);
}

// max{||.||, ||.||_F / sqrt(r)} <= ...: one theorem per norm. The OCR's "[one garbled extra term]" in the
// lambda bracket is left out (spec §4.6).
Theorem thm5_2_covariance(const SchattenVariant& v) {
  Theorem t = covariance_bound(
      v,
      thm5_2_claim(std::string("cai2024.thm5.2.cov.") + v.suffix,
                   "Cai, Xia, Zha 2024, Theorem 5.2 (private sigma^2 plug-in; covariance in "
                   "max{op, F/sqrt(r)})"),
      "\\lambda");
  t.hides += "; one extra term of the lambda bracket, garbled in the source text (spec section 4.6)";
  return t;
}

// ---- §7.1 / §7.2 consistency of the private rank and spike (no error rate is given) ----

// The loss is |estimate - truth| of a scalar (the rank, a spike), and each claim has a setting of its own.
// Both hold w.h.p. under the standing conditions (Algorithm 1's halves) and conditions of their own.
Theorem consistency_claim(std::string id, std::string source, const char* algorithm, const char* setting) {
  Theorem t;
  t.id = std::move(id);
  t.source = std::move(source);
  t.kind = Kind::upper;
  t.loss = {Loss::Name::statistic};
  t.semantics = high_probability();
  t.applies = {algorithm};
  t.conditions = standing_conditions(2);
  t.setting = setting;
  t.example = example_point();
  return t;
}

Theorem rank_consistency() {
  Theorem t = consistency_claim(
      "cai2024.sec7.1",
      "Cai, Xia, Zha 2024, §7.1 (private eigen-ratio rank estimator is consistent: rhat = r w.h.p.)",
      "cai2024.private_rank", "cai2024.spiked_covariance.rank");
  t.rate = [](const Params& x) {
    read_point(x);  // the claim is constant, but its parameters must still be there and valid
    return 1.0;     // |rhat - r| < 1, i.e. rhat = r, on the event of probability -> 1
  };
  // Explicit: rhat = r, i.e. |rhat - r| <= 1/2 for an integer rhat (the metric scalar_error).
  t.explicit_value = [](const Params& x) {
    read_point(x);
    return 0.5;
  };
  t.conditions.push_back(
      {"R >= r", "the postulated bound R covers the rank   [R default 10]",
       [](const Params& x) { return param_or(x, "R", kDefaultRankBound) >= read_point(x).r; }});
  t.conditions.push_back(
      {"C-SNR (rank)",
       "lambda/sigma^2 >= C0 p sqrt(log(R) log(2.5/delta)) / (n eps)   [C0 = C0_rank, default 1]",
       [](const Params& x) {
         const Point s = read_point(x);
         const double R = param_or(x, "R", kDefaultRankBound);
         return s.lambda / s.sigma2 >= param_or(x, "C0_rank", kRankSnr) * s.p *
                                           std::sqrt(std::log(R) * log_delta_halves(s)) / (s.n * s.eps);
       }});
  t.latex =
      "\\hat r = r \\text{ w.h.p. if } \\lambda/\\sigma^2 \\ge C_0 p\\sqrt{\\log "
      "R\\log(2.5/\\delta)}/(n\\varepsilon)";
  t.hides = "the constant C0 and the probability (polynomially small failure); explicit value: 1/2 on |rhat - r|";
  return t;
}

Theorem spike_consistency() {
  Theorem t = consistency_claim("cai2024.sec7.2",
                                "Cai, Xia, Zha 2024, §7.2 (private signal strength: C_lambda^{-1} <= "
                                "lambdatil/lambda <= C_lambda w.h.p.)",
                                "cai2024.private_spike", "cai2024.spiked_covariance.spike");
  t.rate = [](const Params& x) {
    return read_point(x).lambda;
  };  // |lambdatil - lambda| <= (C_lambda - 1) lambda
  t.conditions.push_back(
      {"n eps (spike)", "n eps >= C0 (r + log n)   [C0 = C0_spike, default 1]", [](const Params& x) {
         const Point s = read_point(x);
         return s.n * s.eps >= param_or(x, "C0_spike", kSpikeSampleSize) * (s.r + s.log_n());
       }});
  t.conditions.push_back(
      {"C-SNR (spike)", "lambda/sigma^2 >= C1 p sqrt(log(2.5/delta)) / (n eps)   [C1 = C1_spike, default 1]",
       [](const Params& x) {
         const Point s = read_point(x);
         return s.lambda / s.sigma2 >=
                param_or(x, "C1_spike", kSpikeSnr) * s.p * std::sqrt(log_delta_halves(s)) / (s.n * s.eps);
       }});
  t.latex = "C_\\lambda^{-1} \\le \\tilde\\lambda/\\lambda \\le C_\\lambda \\text{ w.h.p.}";
  t.hides = "the constant C_lambda (depends on C0) and the probability";
  return t;
}

}  // namespace

std::vector<Theorem> cai2024_upper_bounds() {
  std::vector<Theorem> all;
  for (const bool in_expectation : {false, true})
    for (const auto& v : kVariants) all.push_back(thm3_1(v, in_expectation));
  for (const bool in_expectation : {false, true})
    for (const auto& v : kVariants) all.push_back(thm3_2(v, in_expectation));
  for (const auto& v : kVariants) all.push_back(cor1_pca(v));
  for (const auto& v : kVariants) all.push_back(cor1_covariance(v));
  for (const auto& v : kVariants) all.push_back(cor2_pca(v));
  for (const auto& v : kVariants) all.push_back(cor2_covariance(v));
  all.push_back(thm5_2_pca());
  all.push_back(thm5_2_covariance(kVariants[2]));
  all.push_back(thm5_2_covariance(kVariants[1]));
  all.push_back(rank_consistency());
  all.push_back(spike_consistency());
  return all;
}

}  // namespace dpb::bounds
