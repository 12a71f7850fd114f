#pragma once
// The Gaussian mechanism: release f(D) + N(0, sigma^2 I) for an l2 sensitivity Delta.
#include <Eigen/Dense>
#include <string>

#include "algorithms/mechanisms/ledger.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

// Classical calibration sigma = Delta sqrt(2 log(1.25/delta)) / eps (Dwork & Roth Thm A.1; liu2022
// Lemma 2.4; cai2024 Lemma 1). Valid only for 0 < eps < 1 and 0 < delta < 1: outside that range it
// throws dpb::InvalidArgument (the analytic calibration has no such restriction).
double classical_gaussian_sigma(double sensitivity, double epsilon, double delta);
bool classical_gaussian_applies(double epsilon, double delta);

// Analytic Gaussian mechanism (Balle & Wang 2018, Thm 8): the smallest sigma with
// delta(eps; sigma) <= delta, found by root finding on the exact privacy profile. Any eps > 0,
// 0 < delta < 1.
double analytic_gaussian_sigma(double sensitivity, double epsilon, double delta);

// Exact privacy profile of the Gaussian mechanism with noise multiplier z = sigma / Delta:
//   delta(eps) = Phi(1/(2z) - eps z) - e^eps Phi(-1/(2z) - eps z)      (Balle & Wang 2018, Thm 8).
// It is tight: no smaller delta holds at this eps for the worst-case pair of neighbours.
double gaussian_delta(double noise_multiplier, double epsilon);
// The smallest eps >= 0 with gaussian_delta(z, eps) <= delta (0 if already delta(0) <= delta).
double gaussian_epsilon(double noise_multiplier, double delta);

// Which calibration turns an l2 sensitivity into a noise sd: the one choice every Gaussian release of the
// suite offers (parameter `calibration` or its family's name for it).
enum class GaussianCalibration {
  classical,  // Delta sqrt(2 log(1.25/delta)) / eps, as the papers print it; refused unless eps < 1
  analytic,   // Balle & Wang 2018: the smallest sd, any eps
};
// "classical" or "analytic"; anything else throws dpb::InvalidArgument naming `owner`.
GaussianCalibration parse_gaussian_calibration(const std::string& name, const std::string& owner);
std::string to_string(GaussianCalibration c);
double gaussian_sigma(GaussianCalibration calibration, double sensitivity, double epsilon, double delta);

// The Gaussian mechanism: records `entry` (a Mechanism::gaussian entry whose noise_scale is the sd) in
// `ledger` and adds iid N(0, sd^2) to every entry of `value`, column by column. Throws
// dpb::InvalidArgument on another mechanism or a negative or non-finite sd.
void gaussian_mechanism(Eigen::Ref<Eigen::MatrixXd> value, const LedgerEntry& entry, Ledger& ledger,
                        core::Rng& rng);
// The same for a symmetric release (Analyze Gauss, Dwork et al. 2014): iid N(0, sd^2) on the upper
// triangle with the diagonal (core::symmetric_gaussian), mirrored. The entry's sensitivity is the l2
// norm of the change of that upper triangle.
void symmetric_gaussian_mechanism(Eigen::MatrixXd& value, const LedgerEntry& entry, Ledger& ledger,
                                  core::Rng& rng);

// Test-only seam for a generic noise defect: while a guard is alive on this thread, both Gaussian mechanisms
// above draw `factor` times the sd their entry asks for. `recorded`: the ledger (and a probe) sees the entry
// as drawn, as a mutant's shows its break (tests/verify/audit/noise_defect_test.cpp: the audit must flag it);
// `hidden`: they see the entry as asked, a slip inside the mechanism that only the noise probe can see
// (tests/verify/audit/noise_probe_test.cpp). Off (factor 1) everywhere else.
enum class NoiseDefect { recorded, hidden };
class ScopedGaussianNoiseFactor {
 public:
  explicit ScopedGaussianNoiseFactor(double factor, NoiseDefect defect = NoiseDefect::recorded);
  ~ScopedGaussianNoiseFactor();
  ScopedGaussianNoiseFactor(const ScopedGaussianNoiseFactor&) = delete;
  ScopedGaussianNoiseFactor& operator=(const ScopedGaussianNoiseFactor&) = delete;

 private:
  double previous_;
  NoiseDefect previous_defect_;
};

}  // namespace dpb::alg
