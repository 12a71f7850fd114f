// Registration of the liu2022 (Liu, Kong, Jain, Oh 2022, "DP-PCA") algorithms, plus the two
// dugler2026 §2.9 baselines built from liu2022 components (baseline.k_dp_pca, baseline.k_dp_ojas):
// they live in algorithms/baselines/ but are registered here because they are liu2022-built.
#include "algorithms/baselines/k_dp_ojas.hpp"
#include "algorithms/baselines/k_dp_pca.hpp"
#include "algorithms/pca/learning_rate_search.hpp"
#include "algorithms/pca/liu2022_fields.hpp"
#include "algorithms/registrations.hpp"

namespace dpb::alg {
namespace {

using namespace liu2022;

const std::string kSource = "Liu, Kong, Jain, Oh 2022, DP-PCA";

}  // namespace

void register_liu2022(Registry& r) {
  r.add(with_parameters({.id = "liu2022.oja",
                         .summary = "Oja: one pass of Oja's algorithm (non-private reference)",
                         .source = kSource + ", Algorithm 1 (Thm 2.2)",
                         .needs = DataNeed::sample_matrices,
                         .oracle_quantities = {"lambda1", "lambda2 (c1 = 0 or step = theory)", "M, V (step = theory)"},
                         .privacy = "not private"},
                        oja_fields(), construct<Oja>()));
  r.add(with_parameters(
      {.id = "liu2022.private_oja",
       .summary = "Private Oja: shuffle, clip at beta, Gaussian noise 2 eta beta alpha per step",
       .source = kSource + ", Algorithm 2 (Lemma 3.1, Thm 3.3)",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {"lambda1, gamma (clipping threshold, unless given)", "lambda2 (c1 = 0 or step = theory)",
                             "M, V (step = theory)"},
       .privacy = "(eps, delta)-DP, replace-one, worst case (clipping; proven calibration, amplification by "
                  "shuffling where it applies); lemma3_1 (the paper's line 2): the eps its noise proves at the "
                  "run's n"},
      private_oja_fields(),
      [](const PrivateOjaParams& p) -> std::unique_ptr<Estimator> { return std::make_unique<PrivateOja>(with_preset(p)); }));
  r.add(with_parameters(
      {.id = "liu2022.minibatch_private_oja",
       .summary = "Minibatch Private Oja: Eq. (7) corrected (noise coefficient 2, B terms)",
       .source = kSource + ", Section 4 Eq. (7)",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {"lambda1, gamma (clipping threshold, unless given)", "lambda2 (c1 = 0)"},
       .privacy = "(eps, delta)-DP, replace-one, worst case: serial composition over T steps (eps/T < 1) or "
                  "parallel over disjoint minibatches (eps < 1)"},
      minibatch_private_oja_fields(), construct<MinibatchPrivateOja>()));
  r.add(with_parameters({.id = "liu2022.minibatch_gradients",
                         .summary = "Minibatch gradients: Figure 1's diagnostic, the norm of the mean of B gradients "
                                    "A_i w and their range (non-private)",
                         .source = kSource + ", Figure 1 (Sec. 4)",
                         .needs = DataNeed::sample_matrices,
                         .oracle_quantities = {},
                         .privacy = "not private (a data diagnostic; metrics diagnostic.mean_gradient_norm, "
                                    "diagnostic.gradient_range, diagnostic.range_over_mean)"},
                        minibatch_gradients_fields(), construct<MinibatchGradients>()));
  r.add(with_parameters({.id = "liu2022.private_top_eigenvalue",
                         .summary = "Private top eigenvalue: of Cov(g), by a histogram over geometric bins",
                         .source = kSource + ", Algorithm 4 (Thm 6.1)",
                         .needs = DataNeed::vectors,
                         .oracle_quantities = {},
                         .privacy = "(eps, delta)-DP, replace-one, worst case (Lemma B.1); any data, any k"},
                        private_top_eigenvalue_fields(), construct<PrivateTopEigenvalue>()));
  r.add(with_parameters(
      {.id = "liu2022.private_mean",
       .summary = "Private mean: coordinate histograms, truncation, Gaussian noise",
       .source = kSource + ", Algorithm 5 (Lemma 6.2)",
       .needs = DataNeed::vectors,
       .oracle_quantities = {"lambda1 (lambda_hat = 0)"},
       .privacy = "(eps, delta)-DP for eps in (0, 0.9), replace-one, worst case (Lemma 6.2), given a public lambda_hat"},
      private_mean_fields(), construct<PrivateMean>()));
  r.add(with_parameters(
      {.id = "liu2022.dp_pca",
       .summary = "DP-PCA: minibatch Oja with private scale (Alg. 4) and private mean (Alg. 5)",
       .source = kSource + ", Algorithm 3 (Thm 5.1)",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {"lambda1, lambda2 (c1 = 0 or step = theory)", "M, V, gamma (step = theory)"},
       .privacy = "claimed (eps, delta)-DP for eps in (0, 0.9), delta <= 1/n, replace-one, worst case; really (eps/2, "
                  "delta/2) (ambiguity 3)"},
      dp_pca_fields(), construct<DpPca>()));
  register_learning_rate_search(r);
  // dugler2026 §2.9 baselines built from liu2022 components (registered here, see the file comment).
  register_k_dp_pca(r);
  register_k_dp_ojas(r);
}

}  // namespace dpb::alg
