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
//   explained_variance            tr(Q^T Sigma Q) / tr(Sigma): the share of Sigma's variance the estimated
//                                 subspace captures (cai2024 §6.2, MNIST; higher is better)
//
// The estimated subspace is the estimate's Q, or the top-k eigenvectors of its Sigma when it has no Q.
// cov_ metrics exist only for estimates with a Sigma: a PCA-only algorithm in an experiment that also
// asks for cov_op simply has no cov_op in its rows.
#include <map>
#include <string>
#include <vector>

#include "algorithms/estimate.hpp"
#include "core/models/model.hpp"

namespace dpb::verify {

// Every metric name a run accepts, in documentation order.
const std::vector<std::string>& metric_names();

// Throws dpb::InvalidArgument with the nearest known name if `name` is not a metric.
void require_metric(const std::string& name);

// The estimate's Q, or the top-k eigenvectors of its Sigma. Throws dpb::InvalidArgument when it has neither.
Eigen::MatrixXd estimated_subspace(const alg::Estimate& estimate, Eigen::Index k);

// tr(Q^T Sigma Q) / tr(Sigma) for orthonormal columns Q.
double explained_variance(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& Sigma);

// Each of `names` the estimate can give, against `truth`. Throws dpb::InvalidArgument when it can give
// none of them (no Q and no Sigma: a scalar release) or its shape does not match the truth's.
std::map<std::string, double> compute_metrics(const std::vector<std::string>& names, const alg::Estimate& estimate,
                                              const core::ModelInfo& truth);

}  // namespace dpb::verify
