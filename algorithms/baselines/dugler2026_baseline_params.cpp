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
  const double lambda1 = oracle_value(in, "lambda1", owner, kRadiusAlternative);
  const double sigma = std::sqrt(oracle_value(in, "sigma2", owner, kRadiusAlternative));
  return clip_constant * std::sqrt(lambda1) + noise_tail(sigma, n, d, zeta);
}

double DuglerClipRadii::resolve_alpha(const Input& in, Eigen::Index n, Eigen::Index d,
                                      const std::string& owner) const {
  if (alpha > 0) return alpha;
  const double lambda1 = oracle_value(in, "lambda1", owner, kRadiusAlternative);
  const double sigma = std::sqrt(oracle_value(in, "sigma2", owner, kRadiusAlternative));
  const double dd = static_cast<double>(d);
  return sigma * dd + std::sqrt(lambda1 * dd) + noise_tail(sigma, n, d, zeta);
}

DuglerBaselineParams DuglerBaselineParams::from(const core::ParamMap& params, const std::string& owner) {
  DuglerBaselineParams p;
  p.radii.beta = params.get_real("beta", 0.0, owner);
  p.radii.alpha = params.get_real("alpha", 0.0, owner);
  p.radii.clip_constant = params.get_real("clip_constant", 1.0, owner);
  p.radii.zeta = params.get_real("zeta", 0.01, owner);
  p.calibration = read_calibration(params, owner);
  const std::string mode = params.get_string("mode", "corrected", owner);
  if (mode != "corrected" && mode != "faithful")
    throw InvalidArgument(fmt::format("{}: mode must be 'corrected' or 'faithful', got '{}'", owner, mode));
  p.faithful = mode == "faithful";
  return p;
}

std::vector<ParamSpec> dugler_baseline_params(bool with_alpha, const std::string& mode_doc) {
  std::vector<ParamSpec> p = {
      {"beta",
       ParamType::real,
       0.0,
       0.0,
       {},
       {},
       "trace-clip radius: A_i <- A_i min{1, beta^2/Tr A_i} (||x||_2 <= beta for A = x x^T); 0 derives "
       "beta = C sqrt(lambda1) + sigma sqrt(d log(n/zeta)) from the oracle (lambda1, sigma2)",
       "dugler2026 §2.9, §7 F.1"},
      {"clip_constant",
       ParamType::real,
       1.0,
       0.0,
       {},
       {},
       "C in the derived beta (unspecified in the paper)",
       "dugler2026 §7 F.1, §8 item 6"},
      {"zeta",
       ParamType::real,
       0.01,
       1e-12,
       1.0,
       {},
       "target probability that clipping is active anywhere (zeta = 0.01 for every method)",
       "dugler2026 §2.9"},
  };
  if (with_alpha)
    p.push_back({"alpha",
                 ParamType::real,
                 0.0,
                 0.0,
                 {},
                 {},
                 "l1-type clip radius: sum_j sqrt((A_i)_jj) <= alpha (||x||_1 for A = x x^T); 0 derives "
                 "alpha = sigma d + sqrt(lambda1 d) + sigma sqrt(d log(n/zeta)) from the oracle",
                 "dugler2026 §2.9, §7 F.1"});
  p.push_back(calibration_param("dugler2026 §1 Def. 2 and remark after Lemma 2; §8 ambiguity 14"));
  p.push_back({"mode",
               ParamType::choice,
               std::string("corrected"),
               {},
               {},
               {"corrected", "faithful"},
               mode_doc,
               "dugler2026 §2.9, §8 ambiguity 5"});
  return p;
}

}  // namespace dpb::alg::baselines
