// cai2024 minimax lower bounds (spec: cai2024-spiked-dp-pca.md §5.1-5.3), with explicit values from the
// packing actually built and Lemma 6 (lowerbounds/constructions/cai2024_spiked_packing.hpp).
//
// Parameters, losses and setting: bounds/cai2024_model.hpp, shared with the upper bounds, so `gaps` pairs
// Thm 3.1 with Thm 4.1 and Thm 3.2 with Thm 4.2 (one Theorem per q in {1, 2, inf}).
// Constants (Params entries with defaults; override by name):
//   c0_delta, c0p_delta  the delta condition delta <= c0' exp{2 eps - c0 (eps sqrt(n p r) + p r)}
//                        (defaults 0.1, 1)
//   packing_constant     V-packing separation c r^{1/q} (spec A16: c unspecified; default 1/2)
//   packing_size         frames kept by the greedy packing (default 64), packing_seed (default 1)
#include <fmt/core.h>
#include <cmath>
#include <string>
#include <utility>

#include "bounds/cai2024_model.hpp"
#include "bounds/params.hpp"
#include "core/errors.hpp"
#include "lowerbounds/constructions/cai2024_spiked_packing.hpp"
#include "lowerbounds/papers.hpp"

namespace dpb::lower {

using bounds::Condition;
using bounds::Kind;
using bounds::Loss;
using bounds::Params;
using bounds::Theorem;
using namespace bounds::cai2024;  // the model the upper bounds read too

namespace {

constexpr double kDeltaExponent = 0.1;    // c0 of the delta condition (unspecified "small constant")
constexpr double kDeltaPrefactor = 1;     // c0' of the delta condition
constexpr double kPackingConstant = 0.5;  // spec A16
constexpr double kPackingSize = 64;
constexpr double kPackingSeed = 1;
constexpr double kLargestWhole = 1e9;  // dimensions, sizes and seeds beyond this are not construction inputs

// sqrt(sigma^2 (lambda + sigma^2)) / lambda = sqrt(sigma^2/lambda + sigma^4/lambda^2) (Thm 4.1's factor).
double phi(const Point& s) { return std::sqrt(s.sigma2 * (s.lambda + s.sigma2)) / s.lambda; }
// sqrt(p/n) + p sqrt(r)/(n eps): the eigenvector terms of eqs. (10), (11).
double eigenvector_terms(const Point& s) {
  return std::sqrt(s.p / s.n) + s.p * std::sqrt(s.r) / (s.n * s.eps);
}

// As printed (OCR, spec A15); "essentially pure DP". The explicit value checks Lemma 6's own factor instead.
Condition small_delta() {
  return {"delta",
          "delta <= c0' exp{2 eps - c0 (eps sqrt(n p r) + p r)}   [c0 = c0_delta 0.1, c0' = c0p_delta 1]",
          [](const Params& x) {
            const Point s = read_point(x);
            const double c0 = bounds::param_or(x, "c0_delta", kDeltaExponent);
            const double c0p = bounds::param_or(x, "c0p_delta", kDeltaPrefactor);
            return s.delta <=
                   c0p * std::exp(2 * s.eps - c0 * (s.eps * std::sqrt(s.n * s.p * s.r) + s.p * s.r));
          }};
}

Eigen::Index whole(double value, const char* name) {
  if (value != std::floor(value) || value > kLargestWhole)
    throw InvalidArgument(
        fmt::format("cai2024 lower bound: '{}' must be a whole number up to {} for the construction, got {}",
                    name, kLargestWhole, value));
  return static_cast<Eigen::Index>(value);
}

// Lemma 6 on the Thm 4.1 family (p, r, spike, noise), in loss_scale ||P_i - P_j||_q / r^{1/q} (the theorem's
// r).
double family_bound(const Params& x, const Point& s, double p, double r, double spike, double noise, double q,
                    double loss_scale) {
  if (!(p > 2 * r))
    throw InvalidArgument(
        fmt::format("cai2024 lower bound: the packing needs p > 2r (O_{{p-r,r}} has one point "
                    "when p = 2r), got p = {}, r = {}",
                    p, r));
  SpikedFanoProblem problem;
  problem.p = whole(p, "p");
  problem.r = whole(r, "r");
  problem.spike = spike;
  problem.noise = noise;
  problem.n = s.n;
  problem.eps = s.eps;
  problem.delta = s.delta;
  problem.q = q;
  problem.loss_scale = loss_scale;
  problem.normalization = std::pow(s.r, 1 / q);
  problem.packing_constant = bounds::param_or(x, "packing_constant", kPackingConstant);
  problem.packing_size =
      static_cast<std::size_t>(whole(bounds::param_or(x, "packing_size", kPackingSize), "packing_size"));
  problem.seed =
      static_cast<std::uint64_t>(whole(bounds::param_or(x, "packing_seed", kPackingSeed), "packing_seed"));
  return spiked_dp_fano_bound(problem).value;
}

const char* const kClass = "(eps,delta)-DP";

// p = 12, r = 4 (Thm 4.2 (ii) needs r >= 4), n = 100, eps = 1: the delta condition then asks delta <= 6e-5.
Params example_point() {
  return {{"n", 100}, {"p", 12}, {"r", 4}, {"lambda", 10}, {"sigma2", 1}, {"epsilon", 1}, {"delta", 1e-5}};
}

// Thm 4.1 and 4.2 bound the expectation over the same class, domain and setting.
Theorem expectation_lower_bound(std::string id, std::string source, Loss loss) {
  Theorem t;
  t.id = std::move(id);
  t.source = std::move(source);
  t.kind = Kind::lower;
  t.loss = loss;
  t.semantics = {false, 0.0};
  t.applies = {kClass};
  t.conditions = {rank_half_dimension(), small_delta()};
  t.setting = kSetting;
  t.example = example_point();
  return t;
}

Theorem thm4_1(const SchattenVariant& v) {
  Theorem t = expectation_lower_bound(
      std::string("cai2024.thm4.1.") + v.suffix,
      "Cai, Xia, Zha 2024, Theorem 4.1 (DP PCA lower bound; spectral form eq. (10)); explicit value: "
      "Lemma 6 on the App. B.3 packing built here",
      normalized(v.projector, v.q));
  t.rate = [](const Params& x) {
    const Point s = read_point(x);
    return std::min(phi(s) * eigenvector_terms(s), 1.0);
  };
  t.explicit_value = [q = v.q](const Params& x) {
    const Point s = read_point(x);
    return family_bound(x, s, s.p, s.r, s.lambda, s.sigma2, q, 1.0);
  };
  t.latex =
      std::string("\\inf_{\\tilde U}\\sup \\mathbb{E}\\frac{\\|\\tilde U\\tilde U^\\top - UU^\\top\\|_{") +
      v.tex + "}}{r^{1/" + v.tex +
      "}} \\gtrsim \\frac{\\sqrt{\\sigma^2(\\lambda+\\sigma^2)}}{\\lambda}\\Big(\\sqrt{p/n} + "
      "\\frac{p\\sqrt r}{n\\varepsilon}\\Big) \\wedge 1";
  t.hides =
      "the absolute constant c1 (no log factors: the upper bound's sqrt(r + log n) and sqrt(log(1/delta)) "
      "are the gap)";
  return t;
}

Theorem thm4_2(const SchattenVariant& v) {
  Theorem t = expectation_lower_bound(
      std::string("cai2024.thm4.2.") + v.suffix,
      "Cai, Xia, Zha 2024, Theorem 4.2 (DP covariance lower bound; spectral form eq. (11)); explicit "
      "value: Lemma 6 on App. B.4's families (i) and (ii), the larger",
      normalized(v.covariance, v.q));
  t.rate = [](const Params& x) {
    const Point s = read_point(x);
    const double eigenvalue_terms = std::sqrt(s.r / s.n) + std::pow(s.r, 1.5) / (s.n * s.eps);
    return std::min(
        s.lambda * eigenvalue_terms + std::sqrt(s.sigma2 * (s.lambda + s.sigma2)) * eigenvector_terms(s),
        s.lambda);
  };
  // ||Sigma_i - Sigma_j||_q = lambda ||P_i - P_j||_q in both families, so Lemma 6 applies to the covariance
  // loss directly (no reduction constant). (i): the Thm 4.1 family. (ii): the r-dimensional family with rank
  // floor(r/4), spike lambda and noise lambda + sigma^2 (the paper's sigma = 0 "WLOG" plus sigma^2 I).
  t.explicit_value = [q = v.q](const Params& x) {
    const Point s = read_point(x);
    double value = family_bound(x, s, s.p, s.r, s.lambda, s.sigma2, q, s.lambda);
    if (s.r >= 4)
      value = std::max(
          value, family_bound(x, s, s.r, std::floor(s.r / 4), s.lambda, s.lambda + s.sigma2, q, s.lambda));
    return value;
  };
  t.latex =
      std::string("\\inf_{M}\\sup \\mathbb{E}\\frac{\\|M - \\Sigma\\|_{") + v.tex + "}}{r^{1/" + v.tex +
      "}} \\gtrsim \\Big[\\lambda\\Big(\\sqrt{r/n} + \\frac{r^{3/2}}{n\\varepsilon}\\Big) + "
      "\\sqrt{\\sigma^2(\\lambda+\\sigma^2)}\\Big(\\sqrt{p/n} + \\frac{p\\sqrt r}{n\\varepsilon}\\Big)\\Big] "
      "\\wedge \\lambda";
  t.hides = "the absolute constant c1 (no log factors)";
  return t;
}

}  // namespace

std::vector<Theorem> cai2024_lower_bounds() {
  std::vector<Theorem> all;
  for (const auto& v : kVariants) all.push_back(thm4_1(v));
  for (const auto& v : kVariants) all.push_back(thm4_2(v));
  return all;
}

}  // namespace dpb::lower
