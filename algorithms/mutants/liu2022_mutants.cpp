// Mutants of liu2022 Algorithm 5, Private Mean Estimation (liu2022.private_mean, spec liu2022 §2.6,
// §3.5), the building block of DP-PCA (Alg. 3) that releases a vector directly.
#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/zoo.hpp"
#include "algorithms/pca/private_mean.hpp"

namespace dpb::alg::mutants {

std::vector<MutantSpec> liu2022_mutants() {
  const std::string id = "liu2022.private_mean";
  PrivateMeanOptions untruncated;
  untruncated.truncate = false;
  return {
      {.id = "mutant.private_mean_no_truncation",
       .breaks = id,
       .broken = "truncation disabled (line 5 skipped; the line-7 noise still assumes the truncation box)",
       .broken_factory = [untruncated](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
         return PrivateMean::from_params(p, untruncated);
       }},
      {.id = "mutant.private_mean_data_scale",
       .breaks = id,
       .broken = "Lambda_hat (bin width, truncation box and noise scale) set to the top eigenvalue of the "
                 "sample covariance, computed from the data without privacy",
       .break_params =
           [id](core::ParamMap& p, const Input& in) {
             p.set("lambda_hat", top_sample_covariance_eigenvalue(in, id));
           }},
  };
}

}  // namespace dpb::alg::mutants
