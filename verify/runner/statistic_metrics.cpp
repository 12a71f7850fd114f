#include "verify/runner/statistic_metrics.hpp"

#include <algorithm>
#include <cmath>

namespace dpb::verify {

namespace {

// The population value the estimate's scalar estimates, when both are there.
std::optional<double> scalar_truth(const alg::Estimate& estimate, const core::ModelInfo& truth) {
  if (!estimate.scalar || estimate.scalar_estimand.empty()) return std::nullopt;
  const auto value = truth.params.find(estimate.scalar_estimand);
  if (value == truth.params.end()) return std::nullopt;
  return value->second;
}

}  // namespace

const std::vector<std::string>& statistic_metric_names() {
  static const std::vector<std::string> names = {"scalar_error", "scalar_ratio", "scalar_log2_ratio",
                                                 "sample_mean_error"};
  return names;
}

bool is_statistic_metric(const std::string& name) {
  const auto& names = statistic_metric_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::optional<double> statistic_metric(const std::string& name, const alg::Estimate& estimate,
                                       const core::ModelInfo& truth, const Eigen::VectorXd* sample_mean) {
  if (name == "sample_mean_error") {
    if (!estimate.mean || !sample_mean || estimate.mean->size() != sample_mean->size()) return std::nullopt;
    return (*estimate.mean - *sample_mean).norm();
  }
  const auto target = scalar_truth(estimate, truth);
  if (!target) return std::nullopt;
  const double ratio = *estimate.scalar / *target;
  if (name == "scalar_error") return std::abs(*estimate.scalar - *target);
  if (name == "scalar_ratio") return ratio;
  if (!(ratio > 0)) return std::nullopt;  // no factor of 2 brings a scalar <= 0 to the truth
  return std::abs(std::log2(ratio));      // scalar_log2_ratio
}

}  // namespace dpb::verify
