#pragma once
// The private side statistics a PCA on real data needs besides the components: a norm scale (so
// that records can be clipped without a public bound), a clipped mean (centering) and the variance
// explained by given components, and
// the spread of each column (for standardising). Each spends the budget it is given, records its release in the ledger
// it is handed, and uses replace-one neighbours. How many records were clipped is not reported: it is a
// count read off the data, which no mechanism covers.
#include <Eigen/Dense>
#include <optional>

#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/mechanisms/ledger.hpp"
#include "core/rng.hpp"

namespace dpb::alg {

// A privately chosen radius that holds most record norms: the stability histogram (replace-one) over
// geometric bins [2^{m/4}, 2^{(m+1)/4}) of ||x_i||, the largest released bin's right edge. Returns
// nullopt when no bin is released (too few records for the budget: see min_records_for_norm_scale).
struct NormScale {
  std::optional<double> radius;
  std::size_t released_bins = 0;
};
NormScale private_norm_scale(const Eigen::Ref<const Eigen::MatrixXd>& X, const Budget& budget, Ledger& ledger,
                             core::Rng& rng);
// Records one bin must hold for the histogram to release it with probability >= 1/2: the threshold
// 2 log(2/delta)/eps + 1 in counts (mechanisms/histogram.hpp, replace-one). A double: at eps = 1e-300 it
// exceeds every integer type.
double min_records_for_norm_scale(const Budget& budget);

// Mean of the records clipped to l2 radius R, plus Gaussian noise calibrated (analytic Gaussian) to the
// replace-one sensitivity 2R/n.
struct NoisyMean {
  Eigen::VectorXd mean;
  double noise_sd = 0;
};
NoisyMean private_clipped_mean(const Eigen::Ref<const Eigen::MatrixXd>& X, double radius,
                               const Budget& budget, Ledger& ledger, core::Rng& rng);

// Second moment of each coordinate, (1/n) sum_i x_ij^2, of the records clipped to radius R, with
// Gaussian noise. One record's vector (x_i1^2..x_id^2) is nonnegative with norm <= ||x_i||^2 <= R^2, and
// two nonnegative vectors of norm <= R^2 lie within sqrt(2) R^2 of each other, so the replace-one l2
// sensitivity is sqrt(2) R^2 / n.
struct ColumnSecondMoments {
  Eigen::VectorXd values;  // noisy, not floored (a caller decides what a value at the noise level means)
  double noise_sd = 0;
};
ColumnSecondMoments private_column_second_moments(const Eigen::Ref<const Eigen::MatrixXd>& X, double radius,
                                                  const Budget& budget, Ledger& ledger, core::Rng& rng);

// Variance along each column q_j of Q (orthonormal, d x k) and in total, of the records clipped to
// radius R: s_j = (1/n) sum_i (q_j^T x_i)^2, s_total = (1/n) sum_i ||x_i||^2, released together with
// Gaussian noise. One record's vector (s_1..s_k, s_total) is nonnegative with norm <= sqrt(2) R^2, so
// replacing it moves the released vector by at most 2 R^2 / n (the l2 sensitivity used).
struct ExplainedVariance {
  Eigen::VectorXd per_component;  // noisy s_j, floored at 0
  double total = 0;               // noisy s_total, floored at the sum of per_component
  double noise_sd = 0;
  Eigen::VectorXd fractions() const { return total > 0 ? Eigen::VectorXd(per_component / total) : per_component; }
};
ExplainedVariance private_explained_variance(const Eigen::Ref<const Eigen::MatrixXd>& X,
                                             const Eigen::Ref<const Eigen::MatrixXd>& Q, double radius,
                                             const Budget& budget, Ledger& ledger, core::Rng& rng);

}  // namespace dpb::alg
