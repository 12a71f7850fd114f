#include "verify/audit/sensitivity_probe.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/ledger.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"
#include "verify/audit/auditor.hpp"
#include "verify/audit/neighbours.hpp"
#include "verify/audit/recording_probe.hpp"
#include "verify/runner/trial_input.hpp"

namespace dpb::verify {
namespace {

std::vector<Observation> run_recorded(const alg::Estimator& estimator, const alg::Input& in, std::uint64_t seed,
                                      const std::vector<Observation>* replay) {
  core::Rng rng(seed, core::hash_name("sensitivity probe"));
  return run_recorded(estimator, in, rng, replay);
}

double spectral_norm(const std::vector<double>& diff) {
  const auto d = static_cast<Eigen::Index>(std::llround(std::sqrt(static_cast<double>(diff.size()))));
  if (d * d != static_cast<Eigen::Index>(diff.size()))
    throw InvalidArgument("sensitivity probe: a spectral-norm statistic must be a square matrix");
  const Eigen::Map<const Eigen::MatrixXd> m(diff.data(), d, d);
  return Eigen::JacobiSVD<Eigen::MatrixXd>(m).singularValues()(0);
}

struct Pair {
  Eigen::MatrixXd X, X_prime;
  std::string description;
  Eigen::MatrixXd start;  // the public start the runs use (opposed_at_start), else empty
};

}  // namespace

double realised_change(const alg::LedgerEntry& entry, const std::vector<double>& a,
                       const std::vector<std::int64_t>& keys_a, const std::vector<double>& b,
                       const std::vector<std::int64_t>& keys_b) {
  std::vector<double> diff;
  if (keys_a.empty() && keys_b.empty()) {
    if (a.size() != b.size())
      throw InvalidArgument(fmt::format("sensitivity probe: '{}' released statistics of sizes {} and {}",
                                        entry.step, a.size(), b.size()));
    for (std::size_t i = 0; i < a.size(); ++i) diff.push_back(a[i] - b[i]);
  } else {
    std::map<std::int64_t, double> by_key;
    for (std::size_t i = 0; i < a.size(); ++i) by_key[keys_a[i]] += a[i];
    for (std::size_t i = 0; i < b.size(); ++i) by_key[keys_b[i]] -= b[i];
    for (const auto& [key, value] : by_key) diff.push_back(value);
  }
  double norm = 0;
  switch (entry.norm) {
    case alg::SensitivityNorm::l2:
      for (double v : diff) norm += v * v;
      return std::sqrt(norm);
    case alg::SensitivityNorm::l1:
      for (double v : diff) norm += std::abs(v);
      return norm;
    case alg::SensitivityNorm::max_score:
      for (double v : diff) norm = std::max(norm, std::abs(v));
      return norm;
    case alg::SensitivityNorm::spectral:
      return spectral_norm(diff);
  }
  return norm;
}

SensitivityProbeReport probe_sensitivity(const AuditSpec& spec, const alg::Registry& registry,
                                         const SensitivityProbeOptions& options) {
  const alg::AlgorithmEntry& entry = registry.find(spec.algorithm);
  const auto estimator = registry.make(spec.algorithm, spec.params);
  const auto model = audit_model(spec);
  core::Rng rng(options.seed, core::hash_name("sensitivity probe pairs"));
  const auto input = [&](const TrialData& data) {
    return make_input(entry, data, spec.k.value_or(1), spec.privacy, &model->info());
  };

  // A claim made under the model's assumptions declares sensitivities that hold for model data only.
  const TrialData probe_data = trial_data_from_vectors(model->sample(spec.n, rng));
  const alg::ClaimScope scope = estimator->claim(input(probe_data)).scope;
  SensitivityProbeReport report;
  if (scope == alg::ClaimScope::not_private) {
    report.not_private = true;  // its sensitivities bound nothing it promises
    return report;
  }
  const bool model_scope = scope == alg::ClaimScope::under_model_assumptions;
  std::vector<NeighbourKind> kinds = {NeighbourKind::fresh};
  if (!model_scope)
    for (const auto kind : {NeighbourKind::canary, NeighbourKind::huge_norm, NeighbourKind::sign_flip,
                            NeighbourKind::axis_flip, NeighbourKind::corner, NeighbourKind::orthogonal_axes,
                            NeighbourKind::opposed_at_start})
      kinds.push_back(kind);

  double best_ratio = -1;
  Pair best;
  const auto try_pair = [&](const Pair& pair) {
    const TrialData d = trial_data_from_vectors(pair.X), d_prime = trial_data_from_vectors(pair.X_prime);
    alg::Input in = input(d), in_prime = input(d_prime);
    if (pair.start.size() > 0) in.start = in_prime.start = &pair.start;
    const std::uint64_t seed = report.pairs;
    std::vector<Observation> on_d, on_d_prime;
    try {
      on_d = run_recorded(*estimator, in, seed, nullptr);
      on_d_prime = run_recorded(*estimator, in_prime, seed, &on_d);
    } catch (const alg::PrivacyOverspend&) {
      throw;
    } catch (const InvalidArgument&) {
      return;  // input this algorithm refuses (a precondition on the data), not a pair it must bound
    }
    ++report.pairs;
    double pair_ratio = 0;
    for (std::size_t i = 0; i < std::min(on_d.size(), on_d_prime.size()); ++i) {
      const Observation &a = on_d[i], &b = on_d_prime[i];
      if (a.entry.step != b.entry.step) break;  // the runs took different paths from here
      const double declared = std::max(a.entry.sensitivity, b.entry.sensitivity);
      if (a.entry.mechanism == alg::Mechanism::exact || !std::isfinite(declared)) continue;
      const double realised = realised_change(a.entry, a.statistic, a.keys, b.statistic, b.keys);
      ++report.comparisons;
      const double ratio = declared > 0 ? realised / declared : (realised > 0 ? INFINITY : 0);
      double& largest = report.largest_ratio[a.entry.step];
      largest = std::max(largest, ratio);
      pair_ratio = std::max(pair_ratio, ratio);
      if (realised > declared * (1 + 1e-9) + 1e-12)
        report.violations.push_back(
            {a.entry.step, alg::to_string(a.entry.norm), declared, realised, pair.description});
    }
    if (pair_ratio > best_ratio) {
      best_ratio = pair_ratio;
      best = pair;
    }
  };

  for (const NeighbourKind kind : kinds)
    // The replaced record first, in the middle and last: a loop that skips the last record is invisible at 0.
    for (const Eigen::Index index : {Eigen::Index{0}, spec.n / 2, spec.n - 1}) {
      Pair pair;
      try {
        const NeighbourPair p = make_neighbours(kind, entry.breaks.empty() ? entry.id : entry.breaks, *model,
                                                spec.n, index, spec.canary_scale, rng);
        pair = {p.X, p.X_prime, p.description, p.start};
      } catch (const InvalidArgument&) {
        continue;  // a construction this model or size does not admit
      }
      try_pair(pair);
    }
  // Random replacements: direction uniform, norm from a tenth to a hundred times the data's.
  const Eigen::MatrixXd base = model->sample(spec.n, rng);
  const double scale = std::sqrt(base.colwise().squaredNorm().mean());
  for (int r = 0; r < options.random_pairs && !model_scope; ++r) {
    Pair pair{base, base, "", {}};
    const double norm = scale * std::pow(10.0, -1 + 3 * core::uniform01(rng));
    const auto index = static_cast<Eigen::Index>(core::uniform01(rng) * static_cast<double>(spec.n)) % spec.n;
    pair.X_prime.col(index) = norm * core::unit_sphere(rng, base.rows());
    pair.description = fmt::format("random replacement of record {} by norm {:.3g}", index, norm);
    try_pair(pair);
  }
  // Adversarial search: perturb the replacement that came closest to its bound, keep what comes closer.
  for (int step = 0; step < options.search_steps && !model_scope && best_ratio >= 0; ++step) {
    Pair pair = best;
    for (Eigen::Index j = 0; j < pair.X.cols(); ++j)
      if (pair.X.col(j) != pair.X_prime.col(j)) {
        const double norm = pair.X_prime.col(j).norm();
        pair.X_prime.col(j) += 0.5 * std::max(norm, scale) * core::unit_sphere(rng, pair.X.rows());
      }
    pair.description = best.description + fmt::format(" (search step {})", step + 1);
    try_pair(pair);
  }
  std::stable_sort(report.violations.begin(), report.violations.end(),
                   [](const SensitivityViolation& a, const SensitivityViolation& b) {
                     return a.realised / a.declared > b.realised / b.declared;
                   });
  return report;
}

}  // namespace dpb::verify
