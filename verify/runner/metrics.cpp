#include "verify/runner/metrics.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <optional>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/metrics.hpp"
#include "verify/experiment/suggest.hpp"
#include "verify/runner/statistic_metrics.hpp"

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

// `diagnostic.<counter>`: an estimator's diagnostics counter, recorded as a metric (liu2022 Figure 1).
const std::string kDiagnosticPrefix = "diagnostic.";

bool is_diagnostic(const std::string& name) {
  return name.size() > kDiagnosticPrefix.size() && name.compare(0, kDiagnosticPrefix.size(), kDiagnosticPrefix) == 0;
}

const MetricDef& find_metric(const std::string& name) {
  for (const auto& def : metric_defs())
    if (def.name == name) return def;
  throw InvalidArgument(fmt::format("unknown metric '{}'{}", name, suggestion(name, metric_names())));
}

bool is_loss_metric(const std::string& name) { return !is_diagnostic(name) && !is_statistic_metric(name); }

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
    for (const auto& name : statistic_metric_names()) all.push_back(name);
    return all;
  }();
  return names;
}

void require_metric(const std::string& name) {
  if (is_loss_metric(name)) find_metric(name);
}

std::optional<double> subspace_chance_level(const std::string& name, double rank, double dim) {
  if (!is_loss_metric(name)) return std::nullopt;
  const MetricDef& def = find_metric(name);
  if (def.compared != Compared::subspace) return std::nullopt;
  const double sin2_sum = rank * (1 - rank / dim);  // E sum_i sin^2(theta_i) for a random subspace
  double level = std::sqrt(sin2_sum / rank);         // sin and the operator norm: sin^2(theta_max) >= the mean
  // For a line, sqrt(E sin^2) is above E sin (Jensen; 0.707 against 2/pi at d = 2), which would leave a
  // random estimate below 0.9 of "chance": use E sin itself. With x uniform on the sphere, sin^2 =
  // 1 - x_1^2 ~ Beta((d-1)/2, 1/2), so E sin = Gamma(d/2)^2 / (Gamma((d-1)/2) Gamma((d+1)/2)).
  if (rank == 1 && dim >= 2 && def.norm.norm == core::Norm::op && !def.squared)
    level = std::exp(2 * std::lgamma(dim / 2) - std::lgamma((dim - 1) / 2) - std::lgamma((dim + 1) / 2));
  if (def.norm.norm == core::Norm::fro) level = std::sqrt(2 * sin2_sum);
  if (def.norm.norm == core::Norm::schatten) level = 2 * sin2_sum;  // Schatten-1: sin >= sin^2
  if (def.norm.normalize_by_rank && def.norm.norm != core::Norm::op)
    level /= def.norm.norm == core::Norm::fro ? std::sqrt(rank) : rank;
  return def.squared ? level * level : level;
}

std::map<std::string, double> compute_metrics(const std::vector<std::string>& names, const alg::Estimate& estimate,
                                              const core::ModelInfo& truth, const Eigen::VectorXd* sample_mean) {
  std::optional<Eigen::MatrixXd> Q;  // computed once, and only when a metric compares subspaces
  std::map<std::string, double> values;
  for (const auto& name : names) {
    if (is_diagnostic(name)) {
      const auto counter = estimate.diagnostics.counters.find(name.substr(kDiagnosticPrefix.size()));
      if (counter != estimate.diagnostics.counters.end()) values[name] = counter->second;
      continue;
    }
    if (is_statistic_metric(name)) {
      if (const auto value = statistic_metric(name, estimate, truth, sample_mean)) values[name] = *value;
      continue;
    }
    const MetricDef& def = find_metric(name);
    if (!estimate.Q && !estimate.Sigma) continue;
    if (def.compared != Compared::covariance && !Q) Q = estimated_subspace(estimate, truth.r());
    double value = 0;
    if (def.compared == Compared::explained) {
      value = explained_variance(*Q, truth.Sigma);
    } else if (def.compared == Compared::subspace) {
      value = core::projector_distance(*Q, truth.target, def.norm);
    } else if (estimate.Sigma) {
      value = core::covariance_error(*estimate.Sigma, truth.Sigma, def.norm, truth.r());
    } else {
      continue;
    }
    values[name] = def.squared ? value * value : value;
  }
  if (values.empty())
    throw InvalidArgument(fmt::format("the estimate gives none of the metrics {} (a PCA-only estimate has no "
                                      "covariance Sigma, a scalar release no subspace; a diagnostic.<name> needs "
                                      "that counter, a scalar_* metric a scalar the model knows the truth of)",
                                      fmt::join(names, ", ")));
  return values;
}

}  // namespace dpb::verify
