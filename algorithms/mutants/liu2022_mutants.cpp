// Mutants of liu2022 Algorithm 5, Private Mean Estimation (liu2022.private_mean, spec liu2022 §2.6,
// §3.5), the building block of DP-PCA (Alg. 3) that releases a vector directly, and of Algorithm 4,
// Private Top Eigenvalue Estimation (liu2022.private_top_eigenvalue, spec liu2022 §2.7), its scale; and
// Private Oja (Algorithm 2) with too little noise per step.
#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/zoo.hpp"
#include "algorithms/pca/liu2022_fields.hpp"

namespace dpb::alg::mutants {

std::vector<MutantSpec> liu2022_mutants() {
  const std::string id = "liu2022.private_mean";
  PrivateMeanOptions untruncated;
  untruncated.truncate = false;
  TopEigenvalueOptions unthresholded, halved;
  unthresholded.release = BinRelease::every_occupied_bin;
  halved.release = BinRelease::halved_threshold;
  return {
      {.id = "mutant.private_mean_no_truncation",
       .breaks = id,
       .broken = "truncation disabled (line 5 skipped; the line-7 noise still assumes the truncation box)",
       .broken_factory = [untruncated](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
         return std::make_unique<PrivateMean>(
             liu2022::private_mean_fields().read(p, "liu2022.private_mean", PrivateMeanParams{untruncated}));
       }},
      {.id = "mutant.private_mean_data_scale",
       .breaks = id,
       .broken = "Lambda_hat (bin width, truncation box and noise scale) set to the top eigenvalue of the "
                 "sample covariance, computed from the data without privacy",
       .break_params =
           [id](core::ParamMap& p, const Input& in, Ledger& ledger) {
             p.set("lambda_hat", top_sample_covariance_eigenvalue(in, id, ledger));
           }},
      {.id = "mutant.private_oja_noise_x07",
       .breaks = "liu2022.private_oja",
       .broken = "Gaussian noise standard deviation x0.7 (each step's noise multiplier alpha)",
       // Without the shuffle the proven calibration is the analytic Gaussian one that scaled_noise inverts.
       .pinned = {{"shuffle", std::string("false")}, {"noise_calibration", std::string("proven")}},
       .break_privacy = scaled_noise(0.7)},
      {.id = "mutant.top_eigenvalue_no_threshold",
       .breaks = "liu2022.private_top_eigenvalue",
       .broken = "the line-5 histogram releases every occupied bin's noisy frequency without the threshold "
                 "test, singleton bins included",
       .broken_factory = [unthresholded](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
         return std::make_unique<PrivateTopEigenvalue>(liu2022::private_top_eigenvalue_fields().read(
             p, "liu2022.private_top_eigenvalue", PrivateTopEigenvalueParams{unthresholded}));
       }},
      {.id = "mutant.top_eigenvalue_threshold_halved",
       .breaks = "liu2022.private_top_eigenvalue",
       .broken = "the line-5 histogram's threshold halved (a constant slipped): a bin held by one subset's "
                 "eigenvalue is released with probability about sqrt(delta)",
       .broken_factory = [halved](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
         return std::make_unique<PrivateTopEigenvalue>(liu2022::private_top_eigenvalue_fields().read(
             p, "liu2022.private_top_eigenvalue", PrivateTopEigenvalueParams{halved}));
       }},
  };
}

}  // namespace dpb::alg::mutants
