#include "verify/runner/metrics.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/metrics.hpp"
#include "verify/experiment/suggest.hpp"

namespace dpb::verify {
namespace {

enum class Compared { subspace, covariance, explained };

struct MetricDef {
  std::string name;
  Compared compared;
  core::NormSpec norm;
  bool squared = false;
};

const std::vector<MetricDef>& metric_defs() {
  static const std::vector<MetricDef> defs = [] {
    const std::pair<const char*, core::NormSpec> norms[] = {{"op", {core::Norm::op, 2, false}},
                                                            {"fro", {core::Norm::fro, 2, false}},
                                                            {"nuclear", {core::Norm::schatten, 1, false}}};
    std::vector<MetricDef> all = {{"sin", Compared::subspace, {core::Norm::op, 2, false}, false},
                                  {"sin2", Compared::subspace, {core::Norm::op, 2, false}, true},
                                  {"explained_variance", Compared::explained, {}, false}};
    for (const auto& [prefix, compared] :
         {std::pair{"projector", Compared::subspace}, std::pair{"cov", Compared::covariance}})
      for (bool normalized : {false, true})
        for (const auto& [suffix, norm] : norms) {
          core::NormSpec spec = norm;
          spec.normalize_by_rank = normalized;
          all.push_back({fmt::format("{}_{}{}", prefix, suffix, normalized ? "_normalized" : ""), compared, spec});
        }
    return all;
  }();
  return defs;
}

const MetricDef& find_metric(const std::string& name) {
  for (const auto& def : metric_defs())
    if (def.name == name) return def;
  throw InvalidArgument(fmt::format("unknown metric '{}'{}", name, suggestion(name, metric_names())));
}

}  // namespace

Eigen::MatrixXd estimated_subspace(const alg::Estimate& estimate, Eigen::Index k) {
  if (!estimate.Q && !estimate.Sigma)
    throw InvalidArgument("the estimate has neither a subspace Q nor a covariance Sigma to measure");
  return estimate.Q ? *estimate.Q : core::top_eigenpairs(*estimate.Sigma, k).vectors;
}

double explained_variance(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& Sigma) {
  return (Q.transpose() * Sigma * Q).trace() / Sigma.trace();
}

const std::vector<std::string>& metric_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const auto& def : metric_defs()) all.push_back(def.name);
    return all;
  }();
  return names;
}

void require_metric(const std::string& name) { find_metric(name); }

std::map<std::string, double> compute_metrics(const std::vector<std::string>& names, const alg::Estimate& estimate,
                                              const core::ModelInfo& truth) {
  const Eigen::MatrixXd Q = estimated_subspace(estimate, truth.r());
  std::map<std::string, double> values;
  for (const auto& name : names) {
    const MetricDef& def = find_metric(name);
    double value = 0;
    if (def.compared == Compared::explained) {
      value = explained_variance(Q, truth.Sigma);
    } else if (def.compared == Compared::subspace) {
      value = core::projector_distance(Q, truth.target, def.norm);
    } else if (estimate.Sigma) {
      value = core::covariance_error(*estimate.Sigma, truth.Sigma, def.norm, truth.r());
    } else {
      continue;
    }
    values[name] = def.squared ? value * value : value;
  }
  if (values.empty())
    throw InvalidArgument(fmt::format("the estimate has no covariance Sigma for the metrics {}", fmt::join(names, ", ")));
  return values;
}

}  // namespace dpb::verify
