// Mutants of the Analyze-Gauss baseline baseline.dp_gauss (cai2024 §2.8; Dwork, Talwar, Thakurta,
// Zhang 2014, Alg. 1), each pinned to clip = on, the configuration whose claim is worst-case DP, and to
// mode = faithful, the paper's noise (its claim reports the eps that noise gives), where their audits
// were measured (docs/mutants.md).
#include <functional>
#include <limits>

#include "algorithms/baselines/analyze_gauss.hpp"
#include "algorithms/baselines/cai2024_dp_gauss.hpp"
#include "algorithms/mutants/breaks.hpp"
#include "algorithms/mutants/wishart.hpp"
#include "algorithms/mutants/zoo.hpp"

namespace dpb::alg::mutants {
namespace {

core::ParamMap worst_case_configuration() { return {{"clip", std::string("on")}, {"mode", std::string("faithful")}}; }

// baseline.dp_gauss with the Wishart mechanism's noise in place of Analyze Gauss. No theorem of the
// accountant covers PSD noise (nothing does: it is not private), so the release is recorded as what it
// is to the ledger, a release no noise protects.
std::unique_ptr<Estimator> with_wishart_noise(const core::ParamMap& p) {
  return baselines::make_cai2024_dp_gauss(
      p, [](const Eigen::MatrixXd& A, const LedgerEntry& release, const Input& in, Ledger& ledger, core::Rng& rng) {
        ledger.record(exact_entry("second moment + Wishart noise (no privacy theorem applies)", release.sensitivity,
                                  release.neighbours));
        return wishart_release(A, in.X->cols(), in.privacy.epsilon, rng);
      });
}

// baseline.dp_gauss whose Analyze-Gauss noise matrix (drawn as the real one, into a scratch ledger) is
// rewritten by `break_noise`, which records in the run's ledger what the broken release really is.
using NoiseBreak = std::function<void(Eigen::MatrixXd& noise, const LedgerEntry& honest, Ledger& ledger)>;
EstimatorFactory noise_broken_by(NoiseBreak break_noise) {
  return [break_noise](const core::ParamMap& p) {
    return baselines::make_cai2024_dp_gauss(
        p, [break_noise](const Eigen::MatrixXd& A, const LedgerEntry& release, const Input&, Ledger& ledger,
                         core::Rng& rng) {
          Ledger scratch;
          Eigen::MatrixXd noise =
              baselines::analyze_gauss_release(Eigen::MatrixXd::Zero(A.rows(), A.cols()), release, scratch, rng);
          break_noise(noise, release, ledger);
          return Eigen::MatrixXd(A + noise);
        });
  };
}

// What a release of A with part of it left unnoised is to the ledger: that part, exactly.
void record_exact_part(const char* what, const LedgerEntry& honest, Ledger& ledger) {
  ledger.record(honest);
  ledger.record(exact_entry(what, honest.sensitivity, honest.neighbours));
}

}  // namespace

std::vector<MutantSpec> analyze_gauss_mutants() {
  const std::string id = "baseline.dp_gauss";
  return {
      {.id = "mutant.dp_gauss_no_clipping",
       .breaks = id,
       .broken = "clipping disabled (samples with ||X_i||^2 > s enter unclipped)",
       .pinned = worst_case_configuration(),
       .break_params =
           [](core::ParamMap& p, const Input& in, Ledger& ledger) {
             p.set("clip", std::string("off"));
             // Unclipped, a record's change to the second moment has no worst-case bound.
             ledger.record(exact_entry("records entering the second moment unclipped",
                                       std::numeric_limits<double>::infinity(), in.privacy.neighbours));
           }},
      {.id = "mutant.dp_gauss_data_scale",
       .breaks = id,
       .broken = "the scaling (clipping bound) s = max_i ||X_i||^2 computed from the data without privacy",
       .pinned = worst_case_configuration(),
       .break_params = [id](core::ParamMap& p,
                            const Input& in, Ledger& ledger) { p.set("scale", max_squared_norm(in, id, ledger)); }},
      {.id = "mutant.dp_gauss_inverted_eps",
       .breaks = id,
       .broken = "Gaussian noise calibrated at 1/eps instead of eps (scale ~ eps instead of 1/eps)",
       .pinned = worst_case_configuration(),
       .break_privacy = [](const Privacy& asked, const Input&) { return inverted_epsilon(asked); }},
      {.id = "mutant.dp_gauss_halved_noise",
       .breaks = id,
       .broken = "Analyze-Gauss noise standard deviation halved",
       .pinned = worst_case_configuration(),
       .broken_factory = noise_broken_by([](Eigen::MatrixXd& noise, const LedgerEntry& honest, Ledger& ledger) {
         noise *= 0.5;
         LedgerEntry halved = honest;
         halved.noise_scale *= 0.5;
         ledger.record(halved);
       })},
      {.id = "mutant.dp_gauss_noise_x07",
       .breaks = id,
       .broken = "Analyze-Gauss noise standard deviation x0.7 (a constant slipped into the calibration)",
       .pinned = {{"clip", std::string("on")}, {"mode", std::string("faithful")}, {"calibration", std::string("analytic")}},
       .break_privacy = scaled_noise(0.7)},
      {.id = "mutant.dp_gauss_noise_without_diagonal",
       .breaks = id,
       .broken = "symmetric noise missing its diagonal (the diagonal of A released exactly)",
       .pinned = worst_case_configuration(),
       .broken_factory = noise_broken_by([](Eigen::MatrixXd& noise, const LedgerEntry& honest, Ledger& ledger) {
         noise.diagonal().setZero();
         record_exact_part("the diagonal of A, released without noise", honest, ledger);
       })},
      {.id = "mutant.dp_gauss_noise_not_mirrored",
       .breaks = id,
       .broken =
           "symmetric noise drawn on the upper triangle but not mirrored: the lower triangle, which the "
           "symmetric eigensolver reads, keeps A's off-diagonal entries exactly",
       .pinned = worst_case_configuration(),
       .broken_factory = noise_broken_by([](Eigen::MatrixXd& noise, const LedgerEntry& honest, Ledger& ledger) {
         noise.triangularView<Eigen::StrictlyLower>().setZero();
         record_exact_part("the lower triangle of A, read by the eigensolver without noise", honest, ledger);
       })},
      {.id = "mutant.wishart",
       .breaks = id,
       .broken =
           "the Wishart mechanism in place of Analyze Gauss: A + Wishart_d(d + 1, 3/(2 n eps) I), claimed "
           "pure eps-DP (Jiang, Xie, Zhang 2016), which it is not (diffprivlib issue #23)",
       .pinned = worst_case_configuration(),
       .broken_factory = with_wishart_noise,
       .restate_claim =
           [](PrivacyClaim claim, const Input& in) {
             claim.epsilon = in.privacy.epsilon;
             claim.delta = 0;
             claim.conditions.insert(claim.conditions.begin(),
                                     "Wishart mechanism: claimed pure eps-DP for ||x_i|| <= 1 (the published "
                                     "proof is wrong: the noise is positive semidefinite)");
             return claim;
           }},
  };
}

}  // namespace dpb::alg::mutants
