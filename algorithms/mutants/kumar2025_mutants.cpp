// Mutants of kumar2025's PrivCov (Algorithm 1, spec kumar2025 §2.1, §3.1) and of its pure-DP
// exponential-mechanism support selection (Algorithm 4, spec kumar2025 §2.5, A26). Both clip the data at
// a public level (R, tau) and calibrate their noise to it.
#include <cmath>

#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/zoo.hpp"
#include "algorithms/sparse/private_covariance.hpp"

namespace dpb::alg::mutants {

std::vector<MutantSpec> kumar2025_mutants() {
  const std::string cov = "kumar2025.priv_cov", support = "kumar2025.exp_mech_support";
  return {
      // Line 1 sets R = sigma sqrt(2 log(6 n d / beta)); this sigma^2 makes R = max_ij |x_ij|.
      {.id = "mutant.priv_cov_data_truncation",
       .breaks = cov,
       .broken = "truncation level R (and with it the noise scale) = max_ij |x_ij|, computed from the data "
                 "without privacy",
       .break_params =
           [cov](core::ParamMap& p, const Input& in, Ledger& ledger) {
             const double R = max_abs_entry(in, cov, ledger);
             const double n = static_cast<double>(in.X->cols()), d = static_cast<double>(in.X->rows());
             p.set("sigma2", R * R / (2 * std::log(6 * n * d / p.get_real("beta", PrivCovParams{}.beta, cov))));
           }},
      {.id = "mutant.exp_mech_support_data_clip",
       .breaks = support,
       .broken = "clip level tau (and with it the score sensitivity 2 k tau^2 / n) = max_ij |x_ij|, computed "
                 "from the data without privacy",
       .break_params = [support](core::ParamMap& p,
                                 const Input& in, Ledger& ledger) { p.set("tau", max_abs_entry(in, support, ledger)); }},
  };
}

}  // namespace dpb::alg::mutants
