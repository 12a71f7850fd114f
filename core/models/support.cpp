#include "core/models/support.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"

namespace dpb::core::model_support {

Eigen::Index read_dimension(const ParamMap& params, long long fallback, const std::string& owner) {
  constexpr long long kMax = 1LL << 31;
  const long long d = read_int_in(params, "d", fallback, 2, kMax, owner);
  if (params.has("p")) {
    const long long p = read_int_in(params, "p", fallback, 2, kMax, owner);
    if (params.has("d") && p != d)
      throw InvalidArgument(fmt::format("{}: 'p' is an alias of 'd'; got d={} and p={}", owner, d, p));
    return p;
  }
  return d;
}

long long read_int_in(const ParamMap& params, const std::string& name, long long fallback, long long lo,
                      long long hi, const std::string& owner) {
  const long long v = params.get_int(name, fallback, owner);
  if (v < lo || v > hi)
    throw InvalidArgument(
        fmt::format("{}: parameter '{}' must be an integer in [{}, {}], got {}", owner, name, lo, hi, v));
  return v;
}

double read_positive(const ParamMap& params, const std::string& name, double fallback,
                     const std::string& owner) {
  const double v = params.get_real(name, fallback, owner);
  if (!(v > 0) || !std::isfinite(v))
    throw InvalidArgument(
        fmt::format("{}: parameter '{}' must be a finite number > 0, got {}", owner, name, v));
  return v;
}

Eigen::VectorXd read_descending_positive_list(const ParamMap& params, const std::string& name,
                                              Eigen::Index expected_length, const std::string& owner) {
  const auto list = params.get_reals(name, owner);
  if (!list || list->empty())
    throw InvalidArgument(fmt::format("{}: parameter '{}' must be a non-empty list of numbers", owner, name));
  if (expected_length >= 0 && static_cast<Eigen::Index>(list->size()) != expected_length)
    throw InvalidArgument(fmt::format("{}: parameter '{}' must have {} entries, got {}", owner, name,
                                      expected_length, list->size()));
  Eigen::VectorXd v =
      Eigen::Map<const Eigen::VectorXd>(list->data(), static_cast<Eigen::Index>(list->size()));
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (!(v[i] > 0) || !std::isfinite(v[i]))
      throw InvalidArgument(
          fmt::format("{}: entries of '{}' must be finite and > 0, got {}", owner, name, v[i]));
    if (i > 0 && v[i] > v[i - 1])
      throw InvalidArgument(fmt::format("{}: '{}' must be non-increasing (largest first)", owner, name));
  }
  return v;
}

Eigen::VectorXd read_spike_list(const ParamMap& params, const std::string& name, const std::string& count_name,
                                Eigen::Index d, const std::string& owner) {
  const Eigen::Index count = params.has(count_name) ? read_int_in(params, count_name, 1, 1, d, owner) : -1;
  const Eigen::VectorXd spikes = read_descending_positive_list(params, name, count, owner);
  if (spikes.size() > d)
    throw InvalidArgument(fmt::format("{}: '{}' has {} entries but d = {}; need {} <= d", owner, name,
                                      spikes.size(), d, count_name));
  return spikes;
}

ModelInfo low_rank_plus_identity_info(const std::string& id, const Eigen::MatrixXd& U,
                                      const Eigen::VectorXd& spikes, double floor) {
  const Eigen::Index d = U.rows(), r = U.cols();
  ModelInfo info;
  info.model = id;
  info.Sigma = U * spikes.asDiagonal() * U.transpose();
  info.Sigma.diagonal().array() += floor;
  info.eigenvalues = Eigen::VectorXd::Constant(d, floor);
  info.eigenvalues.head(r) += spikes;
  info.target = U;
  const double lambda1 = info.eigenvalues[0], lambda2 = info.eigenvalues[1];
  if (lambda1 > lambda2) info.kappa = lambda1 / (lambda1 - lambda2);  // spec: liu2022 §1.2 A.1
  info.params = {{"d", static_cast<double>(d)},
                 {"p", static_cast<double>(d)},
                 {"r", static_cast<double>(r)},
                 {"lambda1", lambda1},
                 {"lambda2", lambda2}};
  if (r < d) info.params["gap"] = info.eigenvalues[r - 1] - info.eigenvalues[r];  // Delta = lambda_r - lambda_{r+1}
  return info;
}

void publish_closed_forms(ModelInfo& info) {
  if (info.V) info.params["V"] = *info.V;
  if (info.gamma2) {
    info.params["gamma2"] = *info.gamma2;
    info.params["gamma"] = std::sqrt(*info.gamma2);  // the theorems read A.4's gamma itself
  }
  if (info.kappa) info.params["kappa"] = *info.kappa;
  // spec: dugler2026 §1 "Assumption B", remark: Assumption A implies B.2 with v0 = lambda1 sqrt(V), v1 = 0,
  // and B.3 with the crude tail scale g0 = lambda1 gamma, g1 = 0 (g_Q^2 <= lambda1^2 ||H_q|| <= lambda1^2
  // gamma^2). Valid, if loose, Assumption B constants wherever V and gamma^2 are known.
  const double lambda1 = info.eigenvalues.size() > 0 ? info.eigenvalues[0] : 0;
  if (info.V && lambda1 > 0) {
    info.params["v0"] = lambda1 * std::sqrt(*info.V);
    info.params["v1"] = 0;
  }
  if (info.gamma2 && lambda1 > 0) {
    info.params["g0"] = lambda1 * std::sqrt(*info.gamma2);
    info.params["g1"] = 0;
  }
  if (info.effective_rank) info.params["effective_rank"] = *info.effective_rank;
}

void require_sample_count(Eigen::Index n, const std::string& owner) {
  if (n < 0) throw InvalidArgument(fmt::format("{}: sample count n must be >= 0, got {}", owner, n));
}

}  // namespace dpb::core::model_support
