#pragma once
// The one-shot Laplace top-k of kumar2025 Algorithm 1 (lines 7-9) as a mechanism that records itself in the
// ledger: Lap(b) on each of the m scores of a row, the k largest noisy MAGNITUDES selected, then (with
// values) k fresh Lap(b) values on the selection (Qiao, Su, Zhang 2021, "QSZ21", Algorithm 1, with
// kumar2025's ranking by |.|).
//
// What is proven, and what the entry charges (docs/papers/kumar2025.md "A4"): QSZ21 proves its Thm 2.1
// (lambda = 2 k s / eps) and Thm 2.2 (lambda = 8 s sqrt(k log(m/delta)) / eps, eps <= 0.2, delta <= 0.05) for
// the selected INDEX SET only, with the scores ranked by signed value; neither proof covers the fresh values
// nor a ranking by magnitude. Their Thm 2.1 coupling does carry over to magnitudes: given the noise off S,
// each selected score's event {|x_i + g_i| > T} maps into its neighbour's by a shift of the noise of at most
// 2 s (s for x_i, s for the threshold T, outwards by the sign of x_i + g_i, an injection), so the set costs
// 2 k s / b (0 when k = m: the set is all of [m]). The k fresh values cost k s / b. One row is therefore pure
// ((2 k s + k s) / b)-DP, recorded as a Laplace entry whose l1 "sensitivity" is that coupling distance: the
// accountant charges sensitivity / noise_scale. The ledger has no one-shot kind (and no Thm 2.2 entry), so
// this entry is the proven pure bound, never Thm 2.2's smaller one.
#include <Eigen/Dense>
#include <string>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

// The l1 distance the coupling moves the noise for one use: 2 k s for the set (0 when k = m), plus k s when
// the k fresh values are released at the same scale.
double oneshot_top_k_coupling_sensitivity(Eigen::Index m, Eigen::Index k, double score_sensitivity,
                                          bool with_values);

// The entry of one use at Laplace scale `scale`, calibrated for `budget` (the sub-budget the scale was set
// for). Throws dpb::InvalidArgument unless 1 <= k <= m and s, scale are finite and > 0.
LedgerEntry oneshot_top_k_entry(std::string step, Eigen::Index m, Eigen::Index k, double score_sensitivity,
                                double scale, bool with_values, const Privacy& budget);

struct OneshotTopK {
  std::vector<Eigen::Index> support;  // ascending; index order breaks ties (spec: kumar2025 A25)
  Eigen::VectorXd values;             // the released values on `support` (empty without values)
  double max_abs_noise = 0;           // largest |noise| over every draw
  bool tie = false;                   // the k-th and (k+1)-th noisy magnitudes were equal
};

// Records `entry` (from oneshot_top_k_entry; its noise_scale is b) and draws, in this order, m Lap(b)
// selection noises in index order and, with values, k fresh Lap(b) values on the ascending support. Only the
// support and the values are released. `with_values` must match the entry's.
OneshotTopK oneshot_top_k_mechanism(const Eigen::Ref<const Eigen::VectorXd>& scores, Eigen::Index k,
                                    bool with_values, const LedgerEntry& entry, Ledger& ledger,
                                    core::Rng& rng);

}  // namespace dpb::alg
