#include "algorithms/preprocessing/private_statistics.hpp"

#include <cmath>
#include <fmt/core.h>
#include <vector>

#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/mechanisms/histogram.hpp"
#include "core/errors.hpp"

namespace dpb::alg {
namespace {

void require_records(const Eigen::Ref<const Eigen::MatrixXd>& X, const char* what) {
  if (X.cols() < 1 || X.rows() < 1) throw InvalidArgument(fmt::format("{}: needs at least one record", what));
}

void require_radius(double radius, const char* what) {
  if (!(std::isfinite(radius) && radius > 0))
    throw InvalidArgument(fmt::format("{}: the clipping radius must be finite and > 0, got {}", what, radius));
}

}  // namespace

NormScale private_norm_scale(const Eigen::Ref<const Eigen::MatrixXd>& X, const Budget& budget, Ledger& ledger,
                             core::Rng& rng) {
  require_records(X, "private_norm_scale");
  validate(budget);
  std::vector<std::int64_t> bins(static_cast<std::size_t>(X.cols()));
  for (Eigen::Index i = 0; i < X.cols(); ++i) bins[static_cast<std::size_t>(i)] = log_bin(X.col(i).norm());
  const auto histogram = stability_histogram(bins, Privacy{budget.epsilon, budget.delta, Neighbours::replace},
                                             "norm scale: stability histogram of log2 ||x_i||", ledger, rng);
  NormScale scale;
  scale.released_bins = histogram.released.size();
  if (histogram.released.empty()) return scale;
  const std::int64_t top = histogram.released.back().bin;  // released bins are in increasing order
  // The zero bin holds only zero records: any positive radius clips nothing there.
  scale.radius = top == zero_log_bin ? 1.0 : log_bin_left(top + 1);
  return scale;
}

double min_records_for_norm_scale(const Budget& budget) {
  validate(budget);
  return std::ceil(2.0 * std::log(2.0 / budget.delta) / budget.epsilon + 1.0);
}

NoisyMean private_clipped_mean(const Eigen::Ref<const Eigen::MatrixXd>& X, double radius,
                               const Budget& budget, Ledger& ledger, core::Rng& rng) {
  require_records(X, "private_clipped_mean");
  require_radius(radius, "private_clipped_mean");
  validate(budget);
  const double n = static_cast<double>(X.cols());
  NoisyMean result;
  result.mean = Eigen::VectorXd::Zero(X.rows());
  Eigen::VectorXd x(X.rows());
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    x = X.col(i);
    l2_clip(x, radius);
    result.mean += x;
  }
  result.mean /= n;
  // Replacing one record moves the clipped mean by at most 2R/n in l2.
  const double sensitivity = 2.0 * radius / n;
  result.noise_sd = analytic_gaussian_sigma(sensitivity, budget.epsilon, budget.delta);
  gaussian_mechanism(result.mean,
                     gaussian_entry("centering: Gaussian mechanism on the clipped mean", sensitivity,
                                    result.noise_sd, {budget.epsilon, budget.delta, Neighbours::replace}),
                     ledger, rng);
  return result;
}

ColumnSecondMoments private_column_second_moments(const Eigen::Ref<const Eigen::MatrixXd>& X, double radius,
                                                  const Budget& budget, Ledger& ledger, core::Rng& rng) {
  require_records(X, "private_column_second_moments");
  require_radius(radius, "private_column_second_moments");
  validate(budget);
  const double n = static_cast<double>(X.cols());
  ColumnSecondMoments result;
  result.values = Eigen::VectorXd::Zero(X.rows());
  Eigen::VectorXd x(X.rows());
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    x = X.col(i);
    l2_clip(x, radius);
    result.values += x.cwiseAbs2();
  }
  result.values /= n;
  const double sensitivity = std::sqrt(2.0) * radius * radius / n;  // see the header
  result.noise_sd = analytic_gaussian_sigma(sensitivity, budget.epsilon, budget.delta);
  gaussian_mechanism(result.values,
                     gaussian_entry("column spreads: Gaussian mechanism on the clipped per-column second moments",
                                    sensitivity, result.noise_sd, {budget.epsilon, budget.delta, Neighbours::replace}),
                     ledger, rng);
  return result;
}

ExplainedVariance private_explained_variance(const Eigen::Ref<const Eigen::MatrixXd>& X,
                                             const Eigen::Ref<const Eigen::MatrixXd>& Q, double radius,
                                             const Budget& budget, Ledger& ledger, core::Rng& rng) {
  require_records(X, "private_explained_variance");
  require_radius(radius, "private_explained_variance");
  validate(budget);
  if (Q.rows() != X.rows() || Q.cols() < 1)
    throw InvalidArgument(fmt::format("private_explained_variance: Q must be {} x k, got {} x {}", X.rows(), Q.rows(),
                                      Q.cols()));
  const Eigen::Index k = Q.cols();
  const double n = static_cast<double>(X.cols());
  Eigen::VectorXd sums = Eigen::VectorXd::Zero(k + 1), x(X.rows()), projections(k);
  ExplainedVariance result;
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    x = X.col(i);
    l2_clip(x, radius);
    projections.noalias() = Q.transpose() * x;
    sums.head(k) += projections.cwiseAbs2();
    sums(k) += x.squaredNorm();
  }
  sums /= n;
  // One record's vector (s_1..s_k, s_total) is nonnegative with norm <= sqrt(2) R^2 / n, so a replacement
  // moves the sums by at most 2 R^2 / n in l2.
  const double sensitivity = 2.0 * radius * radius / n;
  result.noise_sd = analytic_gaussian_sigma(sensitivity, budget.epsilon, budget.delta);
  gaussian_mechanism(
      sums,
      gaussian_entry("explained variance: Gaussian mechanism on the clipped second moments", sensitivity,
                     result.noise_sd, {budget.epsilon, budget.delta, Neighbours::replace}),
      ledger, rng);
  result.per_component = sums.head(k).cwiseMax(0.0);
  result.total = std::max(sums(k), result.per_component.sum());  // post-processing: fractions stay in [0, 1]
  return result;
}

}  // namespace dpb::alg
