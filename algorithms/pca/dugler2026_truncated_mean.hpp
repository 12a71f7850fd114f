#pragma once
// TRUNCATEDMEAN, dugler2026 Algorithm 5 (spec §2.5): a private coordinatewise center from dk
// stability histograms over bins of width sqrt(Lhat), then the mean of the matrices clamped to
// [center - R, center + R] coordinatewise. The returned mean carries NO noise: the caller adds it
// (Alg. 2 line 7, Alg. 3 line 8); only the center is (eps_C, delta_C)-DP.
#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/param_fields.hpp"
#include "algorithms/pca/dugler2026_common.hpp"
#include "algorithms/registry.hpp"
#include "core/rng.hpp"

namespace dpb::alg::dugler2026 {

// Left-closed bin [i w, (i+1) w) of x, i = floor(x / w), anchored at 0 (spec ambiguity 11). Unlike
// liu2022's interval_bin (left-open, ceil - 1). w finite and > 0, |x / w| < 2^62.
std::int64_t left_closed_bin(double x, double w);

struct TruncatedMeanReport {
  Eigen::Index truncated_entries = 0;  // entries moved by the clamp (lines 8-15)
  Eigen::Index empty_histograms = 0;   // coordinates whose histogram released nothing: center 0 (fallback)
  double noise_scale = 0;              // Laplace scale on a frequency of one coordinate histogram
  bool clamp_pass = false;             // some value lay outside its interval: the matrices were read again
};

// Preallocated buffers. Each coordinate (j, r) counts its bins in a window of `window_bins` consecutive
// bins placed at the median bin of the first chunk; bins outside it (rare: the values of a coordinate
// concentrate within a few widths) are kept in `overflow` and merged in when the histogram is released.
// The windows are counted by comparisons into byte tallies, one row of a group of records per window bin,
// moved into `window` every 255 groups: 16 bins keep the tallies of d k = 500 coordinates in L1.
struct TruncatedMeanWorkspace {
  static constexpr std::int64_t window_bins = 16;
  std::vector<std::uint32_t> window;    // window_bins x dk counts: bin o of coordinate c at o dk + c
  std::vector<std::uint8_t> tallies;    // window_bins x a group's positions: counts since a flush
  std::vector<std::uint8_t> offsets;    // scratch: a group's window offsets
  std::vector<std::int64_t> window_lo;  // first bin of each window
  std::vector<double> group_lo;         // window_lo at each position of a group, as doubles (exact)
  std::vector<std::vector<std::int64_t>> overflow;  // per coordinate
  std::vector<std::int64_t> bins;  // scratch: the first chunk's bins, for the windows' medians
  std::vector<std::int64_t> scratch;                // scratch: one coordinate's bins, for its median
  std::vector<BinCount> counts;
  Eigen::MatrixXd centers;                // d x k
  Eigen::MatrixXd sums, lowest, highest;  // d x k: each coordinate's sum over the m matrices and its range
};

// Records a coordinate histogram needs so that its largest bin can pass the stability threshold at
// the per-coordinate budget (eps_C/(dk), delta_C/(dk)): margin * (1 + 2 log(2/delta_c)/eps_c)
// (spec ambiguity 2: margin 2 gives m >= 2(1 + (4dk/eps) log(4dk/delta)) for eps_C = eps/2).
Eigen::Index truncated_mean_min_samples(Eigen::Index d, Eigen::Index k, const Budget& center, double margin);

// Algorithm 5 on the m = G.cols() / k matrices G_l (d x k, side by side), radius R > 0, range Lhat > 0
// (bin width sqrt(Lhat)), center budget (eps_C, delta_C). Writes the truncated mean into `mean`
// (d x k). Fallback on an empty coordinate histogram: center 0 (spec ambiguity 2; post-processing of
// the DP histogram output). Does not check feasibility (see truncated_mean_min_samples). The dk
// coordinate histograms, each at (eps_C/(dk), delta_C/(dk)) on the same m records (they compose), are
// recorded in `ledger` as `step`.
TruncatedMeanReport truncated_mean(const Eigen::Ref<const Eigen::MatrixXd>& G, Eigen::Index k, double R,
                                   double Lhat, const Budget& center, const std::string& step, Ledger& ledger,
                                   Eigen::Ref<Eigen::MatrixXd> mean, TruncatedMeanWorkspace& ws,
                                   core::Rng& rng);
// The same on matrices produced a chunk at a time, so the m matrices are never held at once; bit for bit
// equal to the stored form. A first pass counts the histograms and sums each coordinate; a second (the
// clamp) runs only where some value lies outside its interval [gbar - R, gbar + R].
TruncatedMeanReport truncated_mean(MatrixChunks& G, double R, double Lhat, const Budget& center,
                                   const std::string& step, Ledger& ledger, Eigen::Ref<Eigen::MatrixXd> mean,
                                   TruncatedMeanWorkspace& ws, core::Rng& rng);

// The l2 (Frobenius) sensitivity of the clamped mean of m matrices d x k given the centers: one replaced
// record moves each of its dk clamped entries by at most 2R, so 2 R sqrt(dk) / m (Lemma 2 step 3, Lemma 14).
double truncated_mean_sensitivity(double R, Eigen::Index d, Eigen::Index k, Eigen::Index m);

// The registered estimator dugler2026.truncated_mean: Algorithm 5 on G_l = A_l Q, l = 1..n, for a
// Haar-random frame Q drawn from rng, released the way Algorithm 2 uses it: centers at (eps/2, delta/2)
// plus Gaussian noise for sensitivity 2 R sqrt(dk)/m at (eps/2, delta/2) (Lemma 2 step 3; the bare
// TRUNCATEDMEAN output is not private, spec ambiguity 11). Estimate.mean = vec(mean) (column-major).
struct TruncatedMeanParams {
  double Lhat = 0;  // 0: the oracle's lambda_1^2 gamma^2 >= Lambda(Q) for every Q (Lemma 11's premise)
  double R = 0;     // 0: Lemma 11's R = radius_constant K sqrt(Lhat) log^a(m d k / zeta)
  double radius_constant = 3.0, K = 1.0, a = 1.0, zeta = 0.01;
  GaussianCalibration calibration = kDugler2026Calibration;
  double feasibility_margin = 2.0;
  bool truncate = true;  // lines 8-16 clamp; false (NOT private: the noise still assumes R) only for mutants
};
// The registered parameters of dugler2026.truncated_mean (truncate is outside the schema: mutants only).
const FieldTable<TruncatedMeanParams>& truncated_mean_fields();

// K, a and zeta of a radius R = C K sqrt(.) log^a(./zeta) (Theorem 1, Lemma 11).
template <class P>
FieldTable<P>& radius_tail_fields(FieldTable<P>& table, double P::*K, double P::*a, double P::*zeta) {
  return table.real("K", K, 1e-12, std::nullopt, "sub-Weibull tail constant K", "dugler2026 §7")
      .real("a", a, 0.5, std::nullopt, "sub-Weibull exponent a", "dugler2026 §7")
      .real("zeta", zeta, 1e-12, 0.5, "failure probability zeta (in R)", "dugler2026 §7");
}
Estimate truncated_mean_release(const Input& in, const TruncatedMeanParams& p, core::Rng& rng);
PrivacyClaim truncated_mean_claim(const TruncatedMeanParams& p, const Input& in);

}  // namespace dpb::alg::dugler2026
