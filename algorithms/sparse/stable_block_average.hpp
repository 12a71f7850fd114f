#pragma once
// The propose-test-release core that kumar2025 Algorithms 2 (PrivPCA) and 3 (PrivNorm) share (lines 1-16):
// split the data into m blocks, certify blocks, test |C| privately, weight blocks by their number of
// "friends" and test the total weight privately, then average (spec: kumar2025 §2.2, §2.3, §3.2 Lemma 8).
#include <Eigen/Dense>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "algorithms/sparse/sparse_common.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

// Every numeric constant of the two boxes, paper defaults (spec §8.1 item 4). In private mode the ones
// the privacy proof depends on may only move in the safe direction (checked by `validate`).
struct StableBlockConstants {
  double friend_radius = 4;      // f_i counts blocks within friend_radius * tau (line 8)
  double final_threshold = 17;   // T_{17 tau} of line 17; must be >= 4 friend_radius + 1 (spec §2.6)
  double test_cutoff = 0.8;      // the 0.8 m of lines 4 and 13 (Lemma 10 needs >= 0.8)
  double ramp_low = 0.5;         // p_i = 0 up to f_i = ramp_low m ...
  double ramp_high = 2.0 / 3.0;  // ... and 1 from ramp_high m (line 9)
  double count_noise_scale = 3;  // BoundedLap(3/eps, .) of line 3
  double mass_noise_scale = 21;  // BoundedLap(21/eps, .) of line 12 (3 x the sensitivity 7 of Z)
  double tail_constant = 12;     // the log(12/delta) in both BoundedLap bounds and tests
  SparseConstants constants;

  // Throws dpb::InvalidArgument on out-of-range values, and in private mode on any value that voids
  // Lemma 8 / 10 / 11 (a smaller noise scale or tail constant, cutoff < 0.8, ramp_low < 1/2,
  // final_threshold < 4 friend_radius + 1).
  void validate(const std::string& owner) const;
  // The sensitivity of Z = sum_i p_i for m blocks: 1 + (m - 1) / (m (ramp_high - ramp_low)) (Eq. 27: 7).
  double mass_sensitivity(Eigen::Index m) const;
};

// tau of Eq. 26: `tau` when > 0, else c_tau sigma^2 sqrt(log(d)/b) with c_tau = `c_tau` when > 0, else
// the spec's default 8 + 4 sqrt(log 800 / log d) (spec: kumar2025 A8, §4.5).
double block_threshold(double tau, double c_tau, double sigma2, Eigen::Index d, Eigen::Index block_size);
double default_c_tau(Eigen::Index d);

// m: `m` when > 0, else spec A7's max{31, (420 f/eps) log(12/delta), 62 log(8/beta)} with f the scaled
// noise factor (1 in private mode). Throws if the blocks would be empty (floor(n/m) < 1) or, in private
// mode, if m <= 30 (Lemma 10).
Eigen::Index block_count(long long m, Eigen::Index n, const Privacy& privacy, double beta,
                         const SparseConstants& constants, const std::string& owner);

// The Gaussian release of Algs 2/3 (lines 19 / 18): sigma = (multiplier Delta/eps) sqrt(log(log_constant/
// delta)), i.e. Fact 1 at (eps/3, delta/3) for the paper's 6 and 6 (spec: kumar2025 A6); scaled by the
// constants mode. In private mode both constants must be >= 6.
double release_noise_sd(double sensitivity, const Privacy& privacy, double multiplier, double log_constant,
                        const SparseConstants& constants, const std::string& owner);

// The three releases of Algs 2/3 and what they are calibrated for (spec: kumar2025 Lemma 8, Cor. 2: (eps/3,
// delta/3) each, basic composition). Line 3 releases |C| + L: |C| has sensitivity 1 (a record sits in one
// block). Line 12 releases Z + xi: Z has sensitivity mass_sensitivity(m) (Eq. 27). Both are bounded Laplace
// with the scale and bound the run uses.
LedgerEntry count_test_entry(const Privacy& privacy, const StableBlockConstants& constants);
LedgerEntry mass_test_entry(Eigen::Index m, const Privacy& privacy, const StableBlockConstants& constants);
// The Gaussian release (Alg 2 line 20, Alg 3 line 19) with sd `sd`, charged for `true_sensitivity`: the
// sensitivity the lemmas prove on datasets that can pass both tests (propose-test-release), whatever smaller
// value a paper mode calibrated the noise to.
LedgerEntry release_entry(std::string step, double true_sensitivity, double sd, const Privacy& privacy);

// The block layout both algorithms start from: m, b = floor(n/m), tau (Eq. 26 at b).
struct BlockLayout {
  Eigen::Index m = 0, block_size = 0;
  double tau = 0;
};
BlockLayout block_layout(Eigen::Index n, Eigen::Index d, long long m, double tau, double c_tau, double sigma2,
                         const Privacy& privacy, double beta, const SparseConstants& constants,
                         const std::string& owner);

// The public inputs and constants PrivPCA, PrivNorm and the Thm 3 pipeline share (spec §8.1 item 4).
struct BlockAlgorithmParams {
  long long m = 0;                // blocks; 0 = spec A7's minimum
  double tau = 0;                 // threshold; 0 = Eq. 26 with c_tau
  double c_tau = 0;               // 0 = spec A8's default 8 + 4 sqrt(log 800/log d)
  double gamma = 0;               // public relative gap, in (0, 1]
  double sigma2 = 0;              // public sub-Gaussian proxy, > 0
  double beta = 0.1;              // failure probability (enters the default m)
  double gauss_multiplier = 6;    // the 6 of sigma_priv = (6 Delta/eps) sqrt(log(6/delta)) (spec A6)
  double gauss_log_constant = 6;  // the 6 inside log(6/delta)
  StableBlockConstants block;
};

// The layout and the final release's noise sd of a block algorithm from its parameters (the overloads above
// with p's m, tau, c_tau, sigma2, beta, gauss_multiplier, gauss_log_constant and constants).
BlockLayout block_layout(const BlockAlgorithmParams& p, Eigen::Index n, Eigen::Index d, const Privacy& privacy,
                         const std::string& owner);
double release_noise_sd(const BlockAlgorithmParams& p, double sensitivity, const Privacy& privacy,
                        const std::string& owner);

// What a block algorithm spends, known before it runs: the count test, the mass test at m blocks, and its
// final Gaussian release `step` with sd `sd`, charged for `proven_sensitivity` (release_entry).
Ledger block_algorithm_ledger(const BlockAlgorithmParams& p, Eigen::Index m, const Privacy& privacy,
                              std::string step, double proven_sensitivity, double sd);

struct CertificationRule {
  Eigen::Index k = 1;
  double gamma = 0;                  // certified blocks need gamma(A_i) >= gamma / 2
  std::optional<double> lambda_hat;  // Alg 2 only: lambda_1(A_i) >= (1 - gamma/2) lambda_hat
};

struct StableBlockResult {
  Eigen::Index m = 0, block_size = 0;  // b = floor(n/m); the last n - m b samples are dropped (A23)
  double tau = 0;
  std::vector<bool> certified;          // i in C
  Eigen::Index certified_count = 0;     // |C|
  Eigen::Index nonpositive_blocks = 0;  // lambda_1(A_i) <= 0: not certified (A24)
  double noisy_count = 0;               // line 3's release |C| + L
  double L = 0;                         // its noise, read back: the release minus |C|
  double count_bound = 0;               // (3/eps) log(12/delta)
  std::optional<double> noisy_mass;     // line 12's release Z + xi (absent when line 4 already stopped)
  std::optional<double> xi;             // its noise, read back: the release minus Z
  double mass_bound = 0;                // (21/eps) log(12/delta)
  Eigen::VectorXd f, p;                 // lines 8-9 (empty when line 4 stopped)
  double Z = 0;
  std::string bottom;        // "" when both tests passed, else which line returned BOTTOM
  Eigen::MatrixXd SigmaBar;  // line 16 (only when both tests passed)
  bool passed() const { return bottom.empty(); }
};

// Lines 1-16 on X (d x n): m blocks of size floor(n/m), certification by `rule`, both private tests, each
// recorded in `ledger` (the second only when the first passes).
StableBlockResult stable_block_average(const Eigen::MatrixXd& X, Eigen::Index m, double tau,
                                       const CertificationRule& rule, const Privacy& privacy,
                                       const StableBlockConstants& constants, Ledger& ledger, core::Rng& rng);

}  // namespace dpb::alg
