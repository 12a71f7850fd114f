#pragma once
// Plumbing shared by the cai2024 estimators (Algorithm 1 and its §5.3 / §7 companions): input
// validation, the model quantities their sensitivities read (given, or the oracle's in simulation),
// their Gaussian releases, and the privacy claim they all carry. That claim is NOT worst case: it holds
// only with high probability over data from the spiked Gaussian model, against neighbours that
// replace one sample by a fresh draw from the same model (spec: cai2024 §3.1, A2).
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "algorithms/calibration_param.hpp"
#include "algorithms/estimate.hpp"
#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg {

// The family's Gaussian calibration by default: the classical one of the paper's Lemma 1 (spec: cai2024 A20).
inline constexpr GaussianCalibration kCai2024Calibration = GaussianCalibration::classical;
// C3 of Delta2 = C3 (lambda (r + log n) + sigma^2 (p + log n))/n, the Monte-Carlo calibrated default every
// release of noisy eigenvalues shares (spec: cai2024 A1).
inline constexpr double kDelta2Constant = 3.0;

// A Gaussian release of a cai2024 estimator as a ledger entry: the noise sd that makes a statistic of l2
// sensitivity `sensitivity` `budget`-DP under `calibration` (classical: cai2024 Lemma 1, the paper's; at
// (eps/2, delta/2) it gives the variance 8 Delta^2 log(2.5/delta)/eps^2 of Algorithm 1, at (eps/3, delta/3)
// the 18 Delta^2 log(3.75/delta)/eps^2 of §5.3; analytic: Balle & Wang 2018, off by default, spec: cai2024
// §8.1 item 2), for replace-one neighbours. `sensitivity` is one of the model's high-probability bounds
// (spiked_sensitivities.hpp), which is what the claim's model assumption makes true. Throws
// dpb::InvalidArgument naming `owner` and `step` when the classical calibration is asked for at a
// per-release eps >= 1 (where it is unproven, spec: cai2024 A20).
LedgerEntry spiked_release(std::string step, double sensitivity, const Budget& budget,
                           GaussianCalibration calibration, const char* owner);

// The p x n data of a covariance-family input (columns are samples). Throws dpb::InvalidArgument when
// X is missing, has p < 2 or n < 1 or a non-finite entry, when eps/delta are outside eps > 0,
// delta in (0, 1), or when the neighbour notion is not replace-one (the only one cai2024 analyses).
const Eigen::MatrixXd& require_samples(const Input& in, const char* owner);

// A population quantity a sensitivity needs (lambda, sigma2): `given` when > 0, otherwise the
// oracle's value (simulation only). Throws dpb::InvalidArgument when neither is available.
struct ModelQuantity {
  double value = 0;
  bool from_oracle = false;
};
ModelQuantity model_quantity(double given, const Input& in, const char* name, const char* owner);

// lambda and sigma2 for the sensitivities, each given (> 0) or the oracle's.
struct SpikedQuantities {
  ModelQuantity lambda;
  ModelQuantity sigma2;
  bool any_from_oracle() const { return lambda.from_oracle || sigma2.from_oracle; }
};
SpikedQuantities spiked_quantities(double lambda, double sigma2, const Input& in, const char* owner);

// The claim of a cai2024 estimator for `in`: it spends share * (eps, delta); its conditions are the
// standard ones, `sensitivity` (the Delta it calibrates to), the classical calibration's range when
// classical, and the oracle condition when `reads_oracle`.
PrivacyClaim cai2024_claim(const Input& in, double share, std::string sensitivity,
                           GaussianCalibration calibration, bool reads_oracle);

// The end of every run: the oracle note (when an oracle quantity was read), the model-assumption
// note, and the claim.
void finish_estimate(Estimate& out, bool oracle_used, PrivacyClaim claim);

// The claim of a cai2024 estimator that spends `total`: replace-one neighbours, scope
// under_model_assumptions, the standard conditions followed by `conditions`.
PrivacyClaim model_assumption_claim(const Budget& total, std::vector<std::string> conditions);

// The condition to add when a sensitivity read an oracle quantity.
std::string oracle_condition(const char* quantities);

// Adds the Diagnostics note every run of a cai2024 estimator carries.
void note_model_assumption(Diagnostics& diagnostics);

// The registry's privacy text shared by every cai2024 entry (appended to the entry's own sentence).
extern const char* const kModelAssumptionPrivacyText;

}  // namespace dpb::alg
