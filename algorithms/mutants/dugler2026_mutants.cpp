// Mutants of dugler2026 TRUNCATEDMEAN as released by ADADPO (dugler2026.truncated_mean, spec dugler2026
// §2.5, Lemma 2): private coordinate centres, clamping to centre +- R, and Gaussian noise for the
// sensitivity 2 R sqrt(dk)/m of the clamped mean, R public (Lemma 11).
#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/zoo.hpp"
#include "algorithms/pca/dugler2026_truncated_mean.hpp"

namespace dpb::alg::mutants {
namespace {

class TruncatedMeanRelease final : public Estimator {
 public:
  explicit TruncatedMeanRelease(dugler2026::TruncatedMeanParams p) : p_(p) {}
  Estimate run(const Input& in, core::Rng& rng) const override {
    return dugler2026::truncated_mean_release(in, p_, rng);
  }
  PrivacyClaim claim(const Input& in) const override { return dugler2026::truncated_mean_claim(p_, in); }

 private:
  dugler2026::TruncatedMeanParams p_;
};

}  // namespace

std::vector<MutantSpec> dugler2026_mutants() {
  const std::string id = "dugler2026.truncated_mean";
  return {
      {.id = "mutant.truncated_mean_no_truncation",
       .breaks = id,
       .broken = "truncation disabled (lines 8-16 clamp nothing; the noise still assumes radius R)",
       .broken_factory = [](const core::ParamMap& p) -> std::unique_ptr<Estimator> {
         dugler2026::TruncatedMeanParams broken = dugler2026::truncated_mean_params(p);
         broken.truncate = false;
         return std::make_unique<TruncatedMeanRelease>(broken);
       }},
      {.id = "mutant.truncated_mean_data_radius",
       .breaks = id,
       .broken =
           "truncation radius R (and with it the noise scale) = max_i ||A_i||_F, computed from the data "
           "without privacy",
       .break_params = [id](core::ParamMap& p,
                            const Input& in) { p.set("R", max_sample_matrix_frobenius(in, id)); }},
  };
}

}  // namespace dpb::alg::mutants
