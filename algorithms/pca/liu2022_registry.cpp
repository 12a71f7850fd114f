// Registration of the liu2022 (Liu, Kong, Jain, Oh 2022, "DP-PCA") algorithms, plus the two
// dugler2026 §2.9 baselines built from liu2022 components (baseline.k_dp_pca, baseline.k_dp_ojas):
// they live in algorithms/baselines/ but are registered here because they are liu2022-built.
#include "algorithms/baselines/k_dp_ojas.hpp"
#include "algorithms/baselines/k_dp_pca.hpp"
#include "algorithms/pca/dp_pca.hpp"
#include "algorithms/pca/learning_rate_search.hpp"
#include "algorithms/pca/minibatch_gradients.hpp"
#include "algorithms/pca/minibatch_private_oja.hpp"
#include "algorithms/pca/oja.hpp"
#include "algorithms/pca/private_mean.hpp"
#include "algorithms/pca/private_oja.hpp"
#include "algorithms/pca/private_top_eigenvalue.hpp"
#include "algorithms/registrations.hpp"

namespace dpb::alg {
namespace {

using liu2022::flag_spec;

const std::string kSource = "Liu, Kong, Jain, Oh 2022, DP-PCA";

void append(std::vector<ParamSpec>& to, const std::vector<ParamSpec>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

std::vector<ParamSpec> oja_params() {
  std::vector<ParamSpec> p = {
      choice_param(
          "step", "inverse_time", {"inverse_time", "theory"},
          "inverse_time: eta_t = c1/(c2 + t); theory: Thm 2.2's alpha/((lambda1 - lambda2)(xi + t)) (oracle)",
          "liu2022 §2.1, §8.1"),
      real_param("lr_mult", 1, 1e-12, std::nullopt,
                 "alpha of Thm 2.2 (> 1/2 for theory); c1 = lr_mult/(lambda1 - lambda2) when c1 = 0",
                 "liu2022 §2.1"),
      real_param("c1", 0, 0, std::nullopt,
                 "eta_t = c1/(c2 + t); 0: lr_mult/(lambda1 - lambda2) from the oracle", "liu2022 §2.8"),
      real_param("c2", 1, 0, std::nullopt, "eta_t = c1/(c2 + t)", "liu2022 §2.8"),
  };
  append(p, liu2022::model_constant_specs(true));
  return p;
}

std::vector<ParamSpec> private_oja_params() {
  std::vector<ParamSpec> p = {
      choice_param("preset", "none", {"none", "cai2024_dp_oja"},
                   "cai2024_dp_oja: cai2024 §6's DP-Oja (clip_constant 0.2, eta = 0.5/n, C' = 1, K = 4, a = "
                   "1, gamma = 1, "
                   "zeta = 0.01); overrides those parameters",
                   "cai2024 §2.8"),
      choice_param("step", "inverse_time", {"inverse_time", "theory", "constant", "constant_half_over_n"},
                   "inverse_time: c1/(c2 + t); theory: App. D.3 h/((lambda1 - lambda2)(xi + t)), h = c log n "
                   "(oracle); "
                   "constant: eta (0 = 0.5/n); constant_half_over_n: 0.5/n",
                   "liu2022 §2.2, §8.1"),
      real_param("clip_constant", 1, 1e-12, std::nullopt,
                 "C in beta = C lambda1 sqrt(d)(K gamma log^a(.) + 1) (Lemma 3.2: 1)", "liu2022 §2.2 line 3"),
      real_param("noise_constant", 1, 1e-12, std::nullopt,
                 "C' in alpha = C' log(n/delta)/(eps sqrt n) (unspecified in the paper)",
                 "liu2022 §2.2 line 2"),
      choice_param(
          "noise_calibration", "proven", {"proven", "lemma3_1", "shuffling_bound", "no_amplification"},
          "proven: the smaller alpha of the explicit shuffling bound and the exact Gaussian one (each sample "
          "used once), a guarantee proven at the run's (n, eps, delta); lemma3_1: line 2 with C' as printed "
          "(asymptotic; the claim is the eps its noise proves); shuffling_bound: smallest alpha meeting the "
          "explicit shuffling bound; no_amplification: sqrt(2 log(1.25/delta))/eps (eps < 1)",
          "liu2022 §3.1, §3.2; cai2024 §2.8"),
      flag_spec("shuffle", true, "uniform permutation of the samples (line 1); false needs no_amplification",
                "liu2022 §2.2 line 1"),
      choice_param(
          "mode", "corrected", {"corrected", "faithful"},
          "corrected: log^a(2nd/zeta) in beta (A.4 read as <= 2); faithful: the printed log^a(nd/zeta)",
          "liu2022 ambiguity 1"),
      real_param("lr_log_constant", 1, 1e-12, std::nullopt, "c in h = c log n (theory schedule)",
                 "liu2022 §2.2 D.3"),
      real_param("C2", 1, 0, std::nullopt, "C2 of V~ (exactly 1)", "liu2022 §2.2 D.3"),
      real_param("C3", 2, 0, std::nullopt, "C3 of M~", "liu2022 §2.2 D.3"),
  };
  append(p, liu2022::practical_schedule_specs(true));
  append(p, liu2022::model_constant_specs(true));
  return p;
}

std::vector<ParamSpec> minibatch_params() {
  std::vector<ParamSpec> p = {
      integer_param("T", 0, 0, "number of steps; 0: ceil((log n)^2); B = floor(n/T)", "liu2022 §2.3, §8.1"),
      choice_param(
          "composition", "serial", {"serial", "parallel"},
          "serial: alpha = T sqrt(2 log(1.25T/delta))/eps; parallel: alpha = sqrt(2 log(1.25/delta))/eps",
          "liu2022 §2.3, ambiguity 4"),
      choice_param(
          "mode", "corrected", {"corrected", "faithful"},
          "corrected: B terms per minibatch and log^a(2nd/zeta); faithful: the printed upper limit Bt - 1 "
          "(B - 1 terms) and log^a(nd/zeta); the noise coefficient is 2 in both",
          "liu2022 ambiguity 4"),
      real_param("clip_constant", 1, 1e-12, std::nullopt, "C in Alg. 2's beta", "liu2022 §2.2 line 3"),
      choice_param("step", "inverse_time", {"inverse_time", "constant"},
                   "inverse_time: c1/(c2 + t); constant: eta", "liu2022 §2.8"),
  };
  append(p, liu2022::practical_schedule_specs(true));
  append(p, liu2022::model_constant_specs(false));
  return p;
}

std::vector<ParamSpec> top_eigenvalue_params() {
  return {real_param("C1", 4, 1e-12, std::nullopt, "k = ceil(C1 log(1/(delta zeta))/eps) + 2 subsets",
                     "liu2022 ambiguity 13"),
          flag_spec("halve_difference_scale", true,
                    "return l/2 (Thm 6.1 holds); false = the paper's faithful l (about 2 lambda1^2 ||H_u||)",
                    "liu2022 ambiguity 6"),
          real_param("zeta", 0.01, 1e-12, 0.5, "failure probability", "liu2022 §2.5")};
}

std::vector<ParamSpec> private_mean_core_params() {
  return {
      real_param("tau_log_argument", 25, 1.0001, std::nullopt,
                 "bin width tau = 2^(1/4) K sqrt(Lambda_hat) log^a(this)", "liu2022 §2.6 line 1"),
      real_param("truncation_multiplier", 3, 1e-12, std::nullopt,
                 "half-width r = this K sqrt(Lambda_hat) log^a(Bd/zeta)", "liu2022 §2.6 line 5"),
      real_param(
          "noise_multiplier", 12, 1e-12, std::nullopt,
          "sigma = this K sqrt(Lambda_hat) log^a(Bd/zeta) sqrt(2d log(2.5/delta))/(eps B); >= 4 x truncation",
          "liu2022 §2.6 line 7")};
}

std::vector<ParamSpec> private_mean_params() {
  std::vector<ParamSpec> p = private_mean_core_params();
  append(p,
         {real_param(
              "lambda_hat", 0, 0, std::nullopt,
              "approximate top eigenvalue of Cov(g); 0 reads the oracle's lambda1 (simulation, vector data)",
              "liu2022 §2.6"),
          real_param("K", 4, 1e-12, std::nullopt, "A.4 K", "liu2022 §1.2"),
          real_param("a", 1, 1e-12, std::nullopt, "A.4 a", "liu2022 §1.2"),
          real_param("zeta", 0.01, 1e-12, 0.5, "failure probability", "liu2022 §2.6")});
  return p;
}

std::vector<ParamSpec> dp_pca_params() {
  std::vector<ParamSpec> p = {
      integer_param("T", 0, 0,
                    "number of minibatches; 0: ceil((log n)^2), lowered to the largest T whose minibatches Alg. 4 "
                    "can use (floor(B/2) >= 2k), unless B is given",
                    "liu2022 §2.4, §8.1"),
      integer_param("B", 0, 0, "minibatch size; 0: floor(n/T). Give T or B, not both", "liu2022 §2.4, §8.1"),
      choice_param(
          "step", "inverse_time", {"inverse_time", "theory"},
          "inverse_time: c1/(c2 + t) (practical); theory: Eq. (60) with alpha = c log n (oracle; vacuous at "
          "simulable n)",
          "liu2022 §2.4, ambiguity 16"),
      real_param("lr_log_constant", 1, 1e-12, std::nullopt, "c in alpha = c log n (theory)", "liu2022 §2.4"),
      real_param("C2", 1, 0, std::nullopt, "C2 of Eq. (60)", "liu2022 ambiguity 16"),
      real_param("C3", 2, 0, std::nullopt, "C3 of Eq. (60)", "liu2022 ambiguity 16"),
      real_param("eig_multiplier_to_alg5", 2, 1e-12, std::nullopt,
                 "line 5 passes this x Lambda_hat_t to Alg. 5", "liu2022 ambiguity 7"),
      choice_param("bottom_policy", "skip", {"skip", "floor"},
                   "Alg. 4 BOTTOM or [0,0]: skip the step, or floor Lambda_hat at lambda_min",
                   "liu2022 §2.5, ambiguity 15"),
      real_param("lambda_min", 0, 0, std::nullopt, "Lambda_hat floor (bottom_policy = floor needs > 0)",
                 "liu2022 §2.5"),
      choice_param("split", "halves", {"halves"}, "first half of each minibatch to Alg. 4, second to Alg. 5",
                   "liu2022 §8.1"),
  };
  append(p, liu2022::practical_schedule_specs(false));
  append(p, {top_eigenvalue_params()[0], top_eigenvalue_params()[1]});
  append(p, private_mean_core_params());
  append(p, liu2022::model_constant_specs(true));
  return p;
}

}  // namespace

void register_liu2022(Registry& r) {
  r.add({"liu2022.oja",
         "Oja: one pass of Oja's algorithm (non-private reference)",
         kSource + ", Algorithm 1 (Thm 2.2)",
         oja_params(),
         DataNeed::sample_matrices,
         {"lambda1", "lambda2 (c1 = 0 or step = theory)", "M, V (step = theory)"},
         "not private",
         [](const core::ParamMap& p) { return std::make_unique<Oja>(Oja::from_params(p)); }});
  r.add({"liu2022.private_oja",
         "Private Oja: shuffle, clip at beta, Gaussian noise 2 eta beta alpha per step",
         kSource + ", Algorithm 2 (Lemma 3.1, Thm 3.3)",
         private_oja_params(),
         DataNeed::sample_matrices,
         {"lambda1, gamma (clipping threshold, unless given)", "lambda2 (c1 = 0 or step = theory)",
          "M, V (step = theory)"},
         "(eps, delta)-DP, replace-one, worst case (clipping; proven calibration, amplification by shuffling "
         "where it applies); lemma3_1 (the paper's line 2): the eps its noise proves at the run's n",
         [](const core::ParamMap& p) { return std::make_unique<PrivateOja>(PrivateOja::from_params(p)); }});
  r.add({"liu2022.minibatch_private_oja",
         "Minibatch Private Oja: Eq. (7) corrected (noise coefficient 2, B terms)",
         kSource + ", Section 4 Eq. (7)",
         minibatch_params(),
         DataNeed::sample_matrices,
         {"lambda1, gamma (clipping threshold, unless given)", "lambda2 (c1 = 0)"},
         "(eps, delta)-DP, replace-one, worst case: serial composition over T steps (eps/T < 1) or parallel "
         "over "
         "disjoint minibatches (eps < 1)",
         [](const core::ParamMap& p) {
           return std::make_unique<MinibatchPrivateOja>(MinibatchPrivateOja::from_params(p));
         }});
  r.add({"liu2022.minibatch_gradients",
         "Minibatch gradients: Figure 1's diagnostic, the norm of the mean of B gradients A_i w and their range (non-private)",
         kSource + ", Figure 1 (Sec. 4)",
         {integer_param("batch", 400, 2, "minibatch size B (Figure 1: 400)", "liu2022 §6")},
         DataNeed::sample_matrices,
         {},
         "not private (a data diagnostic; metrics diagnostic.mean_gradient_norm, diagnostic.gradient_range, "
         "diagnostic.range_over_mean)",
         [](const core::ParamMap& p) {
           return std::make_unique<MinibatchGradients>(MinibatchGradients::from_params(p));
         }});
  r.add({"liu2022.private_top_eigenvalue",
         "Private top eigenvalue: of Cov(g), by a histogram over geometric bins",
         kSource + ", Algorithm 4 (Thm 6.1)",
         top_eigenvalue_params(),
         DataNeed::vectors,
         {},
         "(eps, delta)-DP, replace-one, worst case (Lemma B.1); any data, any k",
         [](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
           return PrivateTopEigenvalue::from_params(p);
         }});
  r.add(
      {"liu2022.private_mean",
       "Private mean: coordinate histograms, truncation, Gaussian noise",
       kSource + ", Algorithm 5 (Lemma 6.2)",
       private_mean_params(),
       DataNeed::vectors,
       {"lambda1 (lambda_hat = 0)"},
       "(eps, delta)-DP for eps in (0, 0.9), replace-one, worst case (Lemma 6.2), given a public lambda_hat",
       [](const core::ParamMap& p) -> std::unique_ptr<Estimator> { return PrivateMean::from_params(p); }});
  r.add({"liu2022.dp_pca",
         "DP-PCA: minibatch Oja with private scale (Alg. 4) and private mean (Alg. 5)",
         kSource + ", Algorithm 3 (Thm 5.1)",
         dp_pca_params(),
         DataNeed::sample_matrices,
         {"lambda1, lambda2 (c1 = 0 or step = theory)", "M, V, gamma (step = theory)"},
         "claimed (eps, delta)-DP for eps in (0, 0.9), delta <= 1/n, replace-one, worst case; really (eps/2, "
         "delta/2) (ambiguity 3)",
         [](const core::ParamMap& p) { return std::make_unique<DpPca>(DpPca::from_params(p)); }});
  register_learning_rate_search(r);
  // dugler2026 §2.9 baselines built from liu2022 components (registered here, see the file comment).
  register_k_dp_pca(r);
  register_k_dp_ojas(r);
}

}  // namespace dpb::alg
