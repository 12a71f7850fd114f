#pragma once
// Metrics of a released statistic (bounds::Loss::Name::statistic: a rank, an eigenvalue, a mean), each
// defined only where the estimate carries the field it reads:
//
//   scalar_error        |scalar - truth|, truth the model's ModelInfo::params entry the estimate names as
//                       its Estimate::scalar_estimand (cai2024 §7.1's rank r, §7.2's lambda, lambda1, ...)
//   scalar_ratio        scalar / truth
//   scalar_log2_ratio   |log2(scalar / truth)|: how many factors of 2 the scalar is off (liu2022 Theorem
//                       6.1 bounds it by 1/2); absent when scalar <= 0, which no factor reaches
//   sample_mean_error   ||mean - (1/n) sum_i x_i||: a private mean against the mean of the trial's own
//                       vectors, which is what liu2022 Lemma 6.2 bounds (not the population mean: the
//                       sampling error ~ sqrt(tr Sigma / n) would swamp the privacy noise ~ 1/n)
#include <Eigen/Dense>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/estimate.hpp"
#include "core/models/model.hpp"

namespace dpb::verify {

// The names above, in documentation order.
const std::vector<std::string>& statistic_metric_names();
bool is_statistic_metric(const std::string& name);

// The metric `name` (one of statistic_metric_names) of the estimate; nullopt when the estimate has no
// such field, names no estimand the model publishes, or (sample_mean_error) no sample mean is given.
std::optional<double> statistic_metric(const std::string& name, const alg::Estimate& estimate,
                                       const core::ModelInfo& truth, const Eigen::VectorXd* sample_mean);

}  // namespace dpb::verify
