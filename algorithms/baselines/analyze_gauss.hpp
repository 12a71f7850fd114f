#pragma once
// The core every Analyze-Gauss baseline shares (Dwork, Talwar, Thakurta, Zhang 2014, Alg. 1 "Analyze
// Gauss"): release a symmetric matrix S plus symmetric Gaussian noise (upper triangle with the
// diagonal drawn iid, mirrored) and take the top-k eigenvectors. Used by baseline.dp_gauss_1 and
// dp_gauss_2 (dugler2026 §2.9) and baseline.dp_gauss / dp_gauss_star (cai2024 §2.8), plus the
// calibration, sensitivity, claim and input-checking helpers those baselines have in common.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "algorithms/calibration_param.hpp"
#include "algorithms/estimate.hpp"
#include "algorithms/mechanisms/gaussian.hpp"  // GaussianCalibration, the Gaussian mechanism
#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/registry.hpp"
#include "core/linalg.hpp"
#include "core/rng.hpp"

namespace dpb::alg::baselines {

// The calibration every Analyze-Gauss baseline defaults to: "analytic" (Balle & Wang 2018, the smallest sd;
// dugler2026's remark after Lemma 2: what its experiments use); "classical" (Delta sqrt(2 log(1.25/delta)) /
// eps, dugler2026 §2.9 and cai2024 §2.8 as printed; eps < 1 only) is the other choice.
inline constexpr GaussianCalibration kAnalyzeGaussCalibration = GaussianCalibration::analytic;
// The `calibration` choice of an Analyze-Gauss baseline's parameter table.
template <class P>
FieldTable<P>& analyze_gauss_calibration_field(FieldTable<P>& table, GaussianCalibration P::*member,
                                               const std::string& spec_ref) {
  return calibration_field(table, member,
                           "Gaussian calibration: analytic (Balle & Wang 2018; any eps, smallest noise) or classical "
                           "Delta sqrt(2 log(1.25/delta))/eps as printed (refused unless eps < 1)",
                           spec_ref);
}

// Frobenius sensitivity of sum_i A_i when every A_i is PSD with Tr A_i <= trace_bound:
//   add/remove: ||A||_F <= Tr A <= trace_bound;
//   replace:    ||A' - A||_F^2 = ||A'||_F^2 + ||A||_F^2 - 2 Tr(A'A) <= 2 trace_bound^2, as Tr(A'A) >= 0 for
//               PSD A, A' (so sqrt(2) trace_bound, not the 2 trace_bound of the triangle inequality).
// The released upper triangle with the diagonal has l2 norm sqrt((||D||_F^2 + sum D_ii^2)/2) <= ||D||_F.
double psd_sum_sensitivity(double trace_bound, Neighbours neighbours);

// The eps that noise of sd `noise_sd` actually gives a release of l2 sensitivity `sensitivity` at
// `delta`, from the exact Gaussian privacy profile (Balle & Wang 2018, Thm 8).
double achieved_epsilon(double noise_sd, double sensitivity, double delta);

// S + E, E symmetric with iid N(0, sd^2) on the upper triangle including the diagonal
// (core::symmetric_gaussian draws it, d(d+1)/2 standard normals column by column), through
// symmetric_gaussian_mechanism: `release` is its ledger entry (sd in noise_scale; sensitivity the l2 change
// of the upper triangle, which is at most the Frobenius change of S), recorded in `ledger`.
Eigen::MatrixXd analyze_gauss_release(const Eigen::MatrixXd& S, const LedgerEntry& release, Ledger& ledger,
                                      core::Rng& rng);
// Top-k eigenpairs (largest algebraic eigenvalues) of analyze_gauss_release(S, release, ledger, rng).
core::EigenPairs analyze_gauss(const Eigen::MatrixXd& S, Eigen::Index k, const LedgerEntry& release,
                               Ledger& ledger, core::Rng& rng);

// Throws dpb::InvalidArgument naming `owner` unless (eps, delta) is valid with 0 < delta < 1 (every
// Gaussian mechanism needs delta > 0).
void require_gaussian_privacy(const Privacy& privacy, const std::string& owner);
// Throws dpb::InvalidArgument unless 1 <= k <= max_k.
void require_rank(int k, Eigen::Index max_k, const std::string& owner, const std::string& why);
// The oracle's value of `name` (ModelInfo::params); throws dpb::InvalidArgument saying which parameter
// to give instead when there is no oracle or it lacks `name`.
double oracle_value(const Input& in, const std::string& name, const std::string& owner,
                    const std::string& alternative);

// The claim of a Gaussian release whose noise sd is `noise_sd` for `assumed_sensitivity`, when the true
// sensitivity under in.privacy.neighbours is `true_sensitivity` (both in the same units):
// (eps, delta) as requested when the two agree, otherwise the exactly achieved eps (achieved_epsilon).
PrivacyClaim gaussian_release_claim(const Privacy& privacy, double noise_sd, double true_sensitivity,
                                    std::vector<std::string> conditions);

// A claim with no guarantee (ClaimScope::not_private) that records the nominal budget.
PrivacyClaim not_private_claim(const Privacy& nominal, std::vector<std::string> conditions);

}  // namespace dpb::alg::baselines
