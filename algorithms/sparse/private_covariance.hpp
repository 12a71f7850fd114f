#pragma once
// kumar2025 Algorithm 1, PrivCov: private estimation of a k-RCS covariance by row-wise one-shot noisy top-k
// selection (spec: kumar2025 §2.1, §3.1, Thm 1). Each row is the one-shot mechanism of oneshot_top_k.hpp; the
// d rows compose by the accountant, so the budget a run spends is computed from its noise, not asserted.
#include <Eigen/Dense>
#include <optional>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "algorithms/sparse/sparse_common.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

struct PrivCovParams {
  double sigma2 = 0;  // public sub-Gaussian proxy sigma^2 > 0
  double beta = 0.1;  // failure probability in R = sigma sqrt(2 log(6nd/beta)), in (0, 1)
  // c in b = (c Delta/eps_row) sqrt(k log(d/delta_row)) (line 5 prints c = 2; spec A4). The default 8 is
  // QSZ21 Thm 2.2's constant; the claim is what the actual noise proves (oneshot_top_k.hpp), whatever c is.
  double noise_multiplier = 8;
  // spec: kumar2025 A2: the printed algorithm never sets the diagonal (M_ii = 0); `fill_diagonal` sets
  // M_ii = SigmaTil^val_ii when i in S_i (post-processing of released values). false = the literal box.
  bool fill_diagonal = true;
  // spec A4: `paper` = line 5's one scale b for the selection and the k fresh values; `conservative` = the
  // selection at (eps_row/2, delta_row/2) and the k values at a scale composing to eps_row/2 (the better of
  // basic and advanced composition, Lemma 1).
  bool conservative_rows = false;
  SparseConstants constants;
};

// Every derived quantity of lines 1, 4 and 5, as reported (spec §8.1 item 3), and what the noise proves.
struct PrivCovCalibration {
  double R = 0;              // truncation level sigma sqrt(2 log(6 n d / beta))
  double delta0 = 0;         // delta / 2
  double delta_row = 0;      // delta / (2d)
  double eps_row = 0;        // eps / (4 sqrt(2 d log(1/delta0)))   (spec A3)
  double Delta = 0;          // entrywise sensitivity 2 R^2 / n
  double b_select = 0;       // Laplace scale of the selection noise z^sel (after the constants mode)
  double b_value = 0;        // Laplace scale of the released values z^val
  double value_epsilon = 0;  // conservative rows: the eps each released value was calibrated for
  double row_epsilon = 0;    // proven pure eps of one row: (2 k Delta [k < d]) / b_select + k Delta / b_value
  double composed_epsilon = 0;  // the accountant's total over the d rows at delta (the ledger's spend)
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

// The ledger entries of one run: `row` for every row (paper rows: the one-shot selection with its k fresh
// values; conservative rows: the selection only) and, for conservative rows, `value` for every released
// value. Built once, before the loop.
struct PrivCovEntries {
  LedgerEntry row;
  std::optional<LedgerEntry> value;
};
PrivCovEntries private_covariance_entries(const PrivCovCalibration& c, Eigen::Index d, Eigen::Index k,
                                          const Privacy& privacy, const PrivCovParams& params);
// The ledger a run records (it does not depend on the data): d uses of `row`, d k uses of `value`.
Ledger plan_private_covariance_ledger(const PrivCovCalibration& c, Eigen::Index d, Eigen::Index k,
                                      const Privacy& privacy, const PrivCovParams& params);

// Algorithm 1 on X (d x n, samples are columns); every release is recorded in `ledger`.
PrivCovResult private_covariance(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                 const PrivCovParams& params, Ledger& ledger, core::Rng& rng);

}  // namespace dpb::alg
