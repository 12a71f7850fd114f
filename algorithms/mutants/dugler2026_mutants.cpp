// Mutants of dugler2026 TRUNCATEDMEAN as released by ADADPO (dugler2026.truncated_mean, spec dugler2026
// §2.5, Lemma 2): private coordinate centres, clamping to centre +- R, and Gaussian noise for the
// sensitivity 2 R sqrt(dk)/m of the clamped mean, R public (Lemma 11); and of PRIVRANGE
// (dugler2026.priv_range, spec §2.4): a stability histogram over the geometric bins of m block maxima; and of
// Private Oja (dugler2026.private_oja, Algorithm 1) with too little noise per batch.
#include "algorithms/function_estimator.hpp"
#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/zoo.hpp"
#include "algorithms/pca/dugler2026_private_range.hpp"
#include "algorithms/pca/dugler2026_truncated_mean.hpp"

namespace dpb::alg::mutants {

std::vector<MutantSpec> dugler2026_mutants() {
  const std::string id = "dugler2026.truncated_mean";
  return {
      {.id = "mutant.truncated_mean_no_truncation",
       .breaks = id,
       .broken = "truncation disabled (lines 8-16 clamp nothing; the noise still assumes radius R)",
       .broken_factory = [id](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
         dugler2026::TruncatedMeanParams broken = dugler2026::truncated_mean_fields().read(p, id);
         broken.truncate = false;
         return make_function_estimator(broken, dugler2026::truncated_mean_release, dugler2026::truncated_mean_claim);
       }},
      {.id = "mutant.truncated_mean_data_radius",
       .breaks = id,
       .broken =
           "truncation radius R (and with it the noise scale) = max_i ||A_i||_F, computed from the data "
           "without privacy",
       .break_params = [id](core::ParamMap& p,
                            const Input& in, Ledger& ledger) { p.set("R", max_sample_matrix_frobenius(in, id, ledger)); }},
      {.id = "mutant.priv_range_no_threshold",
       .breaks = "dugler2026.priv_range",
       .broken = "the line-15 histogram releases every occupied bin's noisy frequency without the threshold "
                 "test, singleton bins included",
       .broken_factory = [](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
         dugler2026::PrivRangeParams broken;
         broken.range.release = BinRelease::every_occupied_bin;
         return make_function_estimator(
             dugler2026::priv_range_fields().read(p, "dugler2026.priv_range", broken), dugler2026::priv_range,
             [](const dugler2026::PrivRangeParams&, const Input& in) { return dugler2026::priv_range_claim(in); });
       }},
      {.id = "mutant.dugler2026_private_oja_noise_x07",
       .breaks = "dugler2026.private_oja",
       .broken = "Gaussian noise standard deviation x0.7 (sigma of line 1)",
       .pinned = {{"calibration", std::string("analytic")}},  // the calibration scaled_noise inverts
       .break_privacy = scaled_noise(0.7)},
  };
}

}  // namespace dpb::alg::mutants
