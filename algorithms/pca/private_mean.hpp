#pragma once
// liu2022 Algorithm 5 (App. E.3): Private Mean Estimation [Karwa-Vadhan; Kamath et al.]. Per
// coordinate, a stability histogram finds a centre; every coordinate is truncated to a box around it
// and the truncated mean gets Gaussian noise.
#include <Eigen/Dense>
#include <vector>

#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/pca/liu2022_common.hpp"

namespace dpb::alg {

struct PrivateMeanOptions {
  double K = 4, a = 1;               // A.4 constants
  double tau_log_argument = 25;      // line 1: log^a(25) (Lemma 2.1 at failure probability 1/25)
  double truncation_multiplier = 3;  // line 5: half-width 3 K sqrt(Lambda_hat) log^a(Bd/zeta)
  double noise_multiplier =
      12;  // line 7: 12 K sqrt(Lambda_hat) log^a(Bd/zeta) sqrt(2d log(2.5/delta))/(eps B)
  // Line 5 on; false (no truncation: NOT private) only for algorithms/mutants.
  bool truncate = true;
};

// The registered algorithm's parameters (liu2022.private_mean).
struct PrivateMeanParams {
  PrivateMeanOptions options;
  double zeta = 0.01;      // failure probability (spec: liu2022 §2.6)
  double lambda_hat = 0;   // approximate top eigenvalue of Cov(g), public; 0: the oracle's lambda1
};

// Output and workspace of one call (its vectors are reused across calls, so repeated calls of the same
// size allocate nothing but the histograms).
struct PrivateMeanResult {
  Eigen::VectorXd mean;                // mu_hat, the private release (line 7)
  Eigen::VectorXd truncated_mean;      // mu~ (line 6), the noise-free quantity; not private
  Eigen::VectorXd centre;              // g_bar (line 4)
  double sigma = 0;                    // the noise standard deviation of line 7
  double tau = 0;                      // bin width (line 1)
  double half_width = 0;               // truncation half-width r (line 5)
  Eigen::Index truncated_entries = 0;  // coordinates g_ij moved by line 5
  Eigen::Index empty_histograms = 0;   // coordinates whose histogram released nothing (g_bar_j = 0)
  // workspace: each coordinate's window of bin counts and its first bin, its occupied bins outside the
  // window (the last one it hit, whether it has too many to list), the bins of a record (or of a
  // coordinate's records, where it has too many), and the truncation intervals
  std::vector<std::size_t> window;
  std::vector<std::int64_t> window_start;
  std::vector<std::vector<BinCount>> counts;
  std::vector<std::size_t> last;
  std::vector<char> overflowed;
  std::vector<std::int64_t> bins;
  Eigen::VectorXd low, high;
};

// Algorithm 5 on the columns of G (d x B) with approximate top eigenvalue lambda_hat > 0. privacy:
// 0 < eps < 0.9 (Lemma 6.2, through Lemma B.4), 0 < delta < 1, replace-one. Throws
// dpb::InvalidArgument on bad input, or when noise_multiplier < 4 truncation_multiplier (then line 7
// no longer covers the sensitivity of the truncated mean).
// The d coordinate histograms and the Gaussian release are recorded in `ledger`.
void private_mean(const Eigen::Ref<const Eigen::MatrixXd>& G, const Privacy& privacy, double zeta,
                  double lambda_hat, const PrivateMeanOptions& options, core::Rng& rng,
                  PrivateMeanResult& out, Ledger& ledger);

// The standalone estimator: g_i = x_i (Input.X) or A_i u for a random unit u; the estimate's `mean` is
// mu_hat. lambda_hat > 0 is given, or 0 reads the oracle's lambda1 (= lambda_max(Cov x) for zero-mean
// vector data; simulation only).
class PrivateMean final : public Estimator {
 public:
  PrivateMean(PrivateMeanOptions options, double zeta, double lambda_hat);
  explicit PrivateMean(const PrivateMeanParams& p) : PrivateMean(p.options, p.zeta, p.lambda_hat) {}
  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;

 private:
  PrivateMeanOptions options_;
  double zeta_, lambda_hat_;
};

}  // namespace dpb::alg
