#include "algorithms/baselines/dugler2026_baseline_params.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::alg::baselines {
namespace {

// sigma sqrt(d log(n/zeta)) (spec: dugler2026 §7 F.1).
double noise_tail(double sigma, Eigen::Index n, Eigen::Index d, double zeta) {
  return sigma * std::sqrt(static_cast<double>(d) * std::log(static_cast<double>(n) / zeta));
}

constexpr const char* kRadiusAlternative = "beta (and for the power method alpha) explicitly";

}  // namespace

double DuglerClipRadii::resolve_beta(const Input& in, Eigen::Index n, Eigen::Index d,
                                     const std::string& owner) const {
  if (beta > 0) return beta;
  if (in.clip_radius > 0) return in.clip_radius;
  const double lambda1 = oracle_value(in, "lambda1", owner, kRadiusAlternative);
  const double sigma = std::sqrt(oracle_value(in, "sigma2", owner, kRadiusAlternative));
  return clip_constant * std::sqrt(lambda1) + noise_tail(sigma, n, d, zeta);
}

double DuglerClipRadii::resolve_alpha(const Input& in, Eigen::Index n, Eigen::Index d,
                                      const std::string& owner) const {
  if (alpha > 0) return alpha;
  // ||x||_1 <= sqrt(d) ||x||_2: a record within the l2 radius is not clipped again.
  if (in.clip_radius > 0) return std::sqrt(static_cast<double>(d)) * in.clip_radius;
  const double lambda1 = oracle_value(in, "lambda1", owner, kRadiusAlternative);
  const double sigma = std::sqrt(oracle_value(in, "sigma2", owner, kRadiusAlternative));
  const double dd = static_cast<double>(d);
  return sigma * dd + std::sqrt(lambda1 * dd) + noise_tail(sigma, n, d, zeta);
}

FieldTable<DuglerBaselineParams> dugler_baseline_fields(bool with_alpha, const std::string& mode_doc) {
  using P = DuglerBaselineParams;
  using R = DuglerClipRadii;
  FieldTable<R> radii;
  radii
      .real("beta", &R::beta, 0.0, std::nullopt,
            "trace-clip radius: A_i <- A_i min{1, beta^2/Tr A_i} (||x||_2 <= beta for A = x x^T); 0 derives it: the "
            "caller's public clip radius where it has one (dpbounds pca: its preprocessing's), else beta = C "
            "sqrt(lambda1) + sigma sqrt(d log(n/zeta)) from the oracle (lambda1, sigma2)",
            "dugler2026 §2.9, §7 F.1")
      .real("clip_constant", &R::clip_constant, 0.0, std::nullopt, "C in the derived beta (unspecified in the paper)",
            "dugler2026 §7 F.1, §8 item 6")
      .real("zeta", &R::zeta, 1e-12, 1.0,
            "target probability that clipping is active anywhere (zeta = 0.01 for every method)", "dugler2026 §2.9");
  if (with_alpha)
    radii.real("alpha", &R::alpha, 0.0, std::nullopt,
               "l1-type clip radius: sum_j sqrt((A_i)_jj) <= alpha (||x||_1 for A = x x^T); 0 derives it: sqrt(d) "
               "times the caller's public clip radius where it has one, else alpha = sigma d + sqrt(lambda1 "
               "d) + sigma sqrt(d log(n/zeta)) from the oracle",
               "dugler2026 §2.9, §7 F.1");
  FieldTable<P> t;
  t.nest(&P::radii, radii);
  analyze_gauss_calibration_field(t, &P::calibration, "dugler2026 §1 Def. 2 and remark after Lemma 2; §8 ambiguity 14")
      .choice("mode", &P::faithful, {{"corrected", false}, {"faithful", true}}, mode_doc,
              "dugler2026 §2.9, §8 ambiguity 5");
  return t;
}

}  // namespace dpb::alg::baselines
