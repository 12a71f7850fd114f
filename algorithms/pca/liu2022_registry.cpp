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

// The factory making E from the parameters `fields` reads.
template <class E, class P>
std::function<std::unique_ptr<Estimator>(const core::ParamMap&)> factory(FieldTable<P> fields, std::string id) {
  return [fields = std::move(fields), id = std::move(id)](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
    return std::make_unique<E>(fields.read(p, id));
  };
}

}  // namespace

void register_liu2022(Registry& r) {
  r.add({"liu2022.oja",
         "Oja: one pass of Oja's algorithm (non-private reference)",
         kSource + ", Algorithm 1 (Thm 2.2)",
         oja_fields().schema(),
         DataNeed::sample_matrices,
         {"lambda1", "lambda2 (c1 = 0 or step = theory)", "M, V (step = theory)"},
         "not private",
         factory<Oja>(oja_fields(), "liu2022.oja")});
  r.add({"liu2022.private_oja",
         "Private Oja: shuffle, clip at beta, Gaussian noise 2 eta beta alpha per step",
         kSource + ", Algorithm 2 (Lemma 3.1, Thm 3.3)",
         private_oja_fields().schema(),
         DataNeed::sample_matrices,
         {"lambda1, gamma (clipping threshold, unless given)", "lambda2 (c1 = 0 or step = theory)",
          "M, V (step = theory)"},
         "(eps, delta)-DP, replace-one, worst case (clipping; proven calibration, amplification by shuffling "
         "where it applies); lemma3_1 (the paper's line 2): the eps its noise proves at the run's n",
         [fields = private_oja_fields()](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
           return std::make_unique<PrivateOja>(with_preset(fields.read(p, "liu2022.private_oja")));
         }});
  r.add({"liu2022.minibatch_private_oja",
         "Minibatch Private Oja: Eq. (7) corrected (noise coefficient 2, B terms)",
         kSource + ", Section 4 Eq. (7)",
         minibatch_private_oja_fields().schema(),
         DataNeed::sample_matrices,
         {"lambda1, gamma (clipping threshold, unless given)", "lambda2 (c1 = 0)"},
         "(eps, delta)-DP, replace-one, worst case: serial composition over T steps (eps/T < 1) or parallel "
         "over "
         "disjoint minibatches (eps < 1)",
         factory<MinibatchPrivateOja>(minibatch_private_oja_fields(), "liu2022.minibatch_private_oja")});
  r.add({"liu2022.minibatch_gradients",
         "Minibatch gradients: Figure 1's diagnostic, the norm of the mean of B gradients A_i w and their range (non-private)",
         kSource + ", Figure 1 (Sec. 4)",
         minibatch_gradients_fields().schema(),
         DataNeed::sample_matrices,
         {},
         "not private (a data diagnostic; metrics diagnostic.mean_gradient_norm, diagnostic.gradient_range, "
         "diagnostic.range_over_mean)",
         factory<MinibatchGradients>(minibatch_gradients_fields(), "liu2022.minibatch_gradients")});
  r.add({"liu2022.private_top_eigenvalue",
         "Private top eigenvalue: of Cov(g), by a histogram over geometric bins",
         kSource + ", Algorithm 4 (Thm 6.1)",
         private_top_eigenvalue_fields().schema(),
         DataNeed::vectors,
         {},
         "(eps, delta)-DP, replace-one, worst case (Lemma B.1); any data, any k",
         factory<PrivateTopEigenvalue>(private_top_eigenvalue_fields(), "liu2022.private_top_eigenvalue")});
  r.add(
      {"liu2022.private_mean",
       "Private mean: coordinate histograms, truncation, Gaussian noise",
       kSource + ", Algorithm 5 (Lemma 6.2)",
       private_mean_fields().schema(),
       DataNeed::vectors,
       {"lambda1 (lambda_hat = 0)"},
       "(eps, delta)-DP for eps in (0, 0.9), replace-one, worst case (Lemma 6.2), given a public lambda_hat",
       factory<PrivateMean>(private_mean_fields(), "liu2022.private_mean")});
  r.add({"liu2022.dp_pca",
         "DP-PCA: minibatch Oja with private scale (Alg. 4) and private mean (Alg. 5)",
         kSource + ", Algorithm 3 (Thm 5.1)",
         dp_pca_fields().schema(),
         DataNeed::sample_matrices,
         {"lambda1, lambda2 (c1 = 0 or step = theory)", "M, V, gamma (step = theory)"},
         "claimed (eps, delta)-DP for eps in (0, 0.9), delta <= 1/n, replace-one, worst case; really (eps/2, "
         "delta/2) (ambiguity 3)",
         factory<DpPca>(dp_pca_fields(), "liu2022.dp_pca")});
  register_learning_rate_search(r);
  // dugler2026 §2.9 baselines built from liu2022 components (registered here, see the file comment).
  register_k_dp_pca(r);
  register_k_dp_ojas(r);
}

}  // namespace dpb::alg
