#pragma once
// kumar2025 Algorithm 1, PrivCov: (eps, delta)-DP estimation of a k-RCS covariance by row-wise one-shot
// noisy top-k selection (spec: kumar2025 §2.1, §3.1, Thm 1).
#include <Eigen/Dense>
#include <vector>

#include "algorithms/privacy.hpp"
#include "algorithms/sparse/sparse_common.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct PrivCovParams {
  double sigma2 = 0;            // public sub-Gaussian proxy sigma^2 > 0
  double beta = 0.1;            // failure probability in R = sigma sqrt(2 log(6nd/beta)), in (0, 1)
  double noise_multiplier = 2;  // the 2 in b = (2 Delta/eps_row) sqrt(k log(d/delta_row)) (spec A4)
  // spec: kumar2025 A2: the printed algorithm never sets the diagonal (M_ii = 0); `fill_diagonal` sets
  // M_ii = SigmaTil^val_ii when i in S_i (post-processing of released values). false = the literal box.
  bool fill_diagonal = true;
  // spec A4: `paper` = the whole row (selection + k values) at (eps_row, delta_row) by QSZ21 Thm 2.2 as
  // the paper asserts; `conservative` = selection at (eps_row/2, delta_row/2) and the k Laplace values
  // composed to (eps_row/2, delta_row/2) (the better of basic and advanced composition, Lemma 1).
  bool conservative_rows = false;
  SparseConstants constants;
};

// Every derived quantity of lines 1, 4 and 5, as reported (spec §8.1 item 3).
struct PrivCovCalibration {
  double R = 0;                 // truncation level sigma sqrt(2 log(6 n d / beta))
  double delta0 = 0;            // delta / 2
  double delta_row = 0;         // delta / (2d)
  double eps_row = 0;           // eps / (4 sqrt(2 d log(1/delta0)))   (spec A3)
  double Delta = 0;             // entrywise sensitivity 2 R^2 / n
  double b_select = 0;          // Laplace scale of the selection noise z^sel (after the constants mode)
  double b_value = 0;           // Laplace scale of the released values z^val
  double composed_epsilon = 0;  // exact Lemma 1 total over the d rows (<= eps in private mode)
  double composed_delta = 0;
};

// Throws dpb::InvalidArgument on invalid n, d, k, privacy or parameters.
PrivCovCalibration calibrate_private_covariance(Eigen::Index n, Eigen::Index d, Eigen::Index k,
                                                const Privacy& privacy, const PrivCovParams& params);

struct PrivCovResult {
  Eigen::MatrixXd M;                                // the released estimate (symmetric)
  Eigen::MatrixXd truncated_second_moment;          // SigmaHat of line 3 (not private; for checks)
  std::vector<std::vector<Eigen::Index>> supports;  // S_i, ascending
  PrivCovCalibration calibration;
  Eigen::Index truncated_coordinates = 0;  // entries of X with |x| > R (line 2)
  double max_abs_noise = 0;                // lambda_priv_obs = max |z| over every draw used
  Eigen::Index selection_ties = 0;         // rows whose top-k was decided by index order (A25)
};

// Algorithm 1 on X (d x n, samples are columns).
PrivCovResult private_covariance(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                 const PrivCovParams& params, core::Rng& rng);

}  // namespace dpb::alg
