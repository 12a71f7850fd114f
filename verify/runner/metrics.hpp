#pragma once
// The loss metrics a run records for each trial (DESIGN.md §4 `Loss`), computed with core/metrics.hpp
// against the model's population quantities (ModelInfo::target, ModelInfo::Sigma).
//
//   sin, sin2                     sin (squared) of the largest principal angle between the estimated
//                                 subspace and the target: ||Q Q^T - U U^T||_op (for k = 1 the angle
//                                 between the two vectors, kumar2025 Eq. 2)
//   projector_{op,fro,nuclear}    ||Q Q^T - U U^T|| in the operator, Frobenius, Schatten-1 norm
//   cov_{op,fro,nuclear}          ||Sigma_hat - Sigma|| in the same norms
//   <any of the six>_normalized   divided by r^{1/q} (cai2024 §1.4), r the target's rank
//   diagnostic.<name>             the estimate's diagnostics counter <name> (e.g. liu2022 Figure 1's
//                                 range_over_mean), for diagnostic estimators without Q or Sigma
//   explained_variance            tr(Q^T Sigma Q) / tr(Sigma): the share of Sigma's variance the estimated
//                                 subspace captures (cai2024 §6.2, MNIST; higher is better)
//   scalar_error, scalar_ratio,   a released statistic against the model's truth (statistic_metrics.hpp):
//   scalar_log2_ratio,            the scalar against the quantity it estimates (a rank, lambda, lambda1),
//   sample_mean_error             a private mean against the trial's sample mean
//
// The estimated subspace is the estimate's Q, or the top-k eigenvectors of its Sigma when it has no Q.
// Each metric exists only for estimates with what it reads: a PCA-only algorithm in an experiment that
// also asks for cov_op simply has no cov_op in its rows, a scalar release no sin.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/estimate.hpp"
#include "core/models/model.hpp"

namespace dpb::verify {

// Every metric name a run accepts, in documentation order.
const std::vector<std::string>& metric_names();

// Throws dpb::InvalidArgument with the nearest known name if `name` is not a metric (any
// `diagnostic.<name>` is one: whether the estimator has that counter is known only when it runs).
void require_metric(const std::string& name);

// The level of a subspace metric that a uniformly random rank-`rank` subspace of R^`dim` reaches, from
// E sum_i sin^2(theta_i) = rank (1 - rank / dim): sqrt(1 - rank/dim) for sin and the operator norm
// (for rank 1, the exact mean E sin = Gamma(d/2)^2 / (Gamma((d-1)/2) Gamma((d+1)/2)) instead, which
// sqrt(1 - 1/d) exceeds), sqrt(2 rank (1 - rank/dim)) for Frobenius, 2 rank (1 - rank/dim) for
// Schatten-1 (a lower bound), each divided by rank^{1/q} when normalised, and 1 - rank/dim for sin2
// (exact for rank 1). An estimate at this level is no better than chance. nullopt for covariance and
// diagnostic metrics, which have no such level.
std::optional<double> subspace_chance_level(const std::string& name, double rank, double dim);

// The estimate's Q, or the top-k eigenvectors of its Sigma. Throws dpb::InvalidArgument when it has neither.
Eigen::MatrixXd estimated_subspace(const alg::Estimate& estimate, Eigen::Index k);

// tr(Q^T Sigma Q) / tr(Sigma) for orthonormal columns Q.
double explained_variance(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& Sigma);

// Each of `names` the estimate can give, against `truth` (and `sample_mean`, the mean of the trial's
// vectors, for sample_mean_error). Throws dpb::InvalidArgument when it can give none of them, or its
// shape does not match the truth's.
std::map<std::string, double> compute_metrics(const std::vector<std::string>& names, const alg::Estimate& estimate,
                                              const core::ModelInfo& truth,
                                              const Eigen::VectorXd* sample_mean = nullptr);

}  // namespace dpb::verify
