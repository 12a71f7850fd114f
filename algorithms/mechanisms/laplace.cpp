#include "algorithms/mechanisms/laplace.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "algorithms/mechanisms/probed_release.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {

void require_positive(const char* what, double value) {
  if (!(std::isfinite(value) && value > 0))
    throw InvalidArgument(fmt::format("{} must be a finite number > 0, got {}", what, value));
}

}  // namespace

double laplace_scale(double sensitivity, double epsilon) {
  require_positive("sensitivity", sensitivity);
  require_positive("epsilon", epsilon);
  return sensitivity / epsilon;
}

namespace {

// Records the release and shows it to an active sensitivity probe, which may replace it.
double probed(double statistic, double released, const LedgerEntry& entry) {
  LedgerProbe* probe = active_probe();
  if (!probe) return released;
  std::vector<double> release{released};
  probe->observe(entry, {statistic}, {}, release, ProbedRelease::drawn);
  return release.at(0);
}

void check_laplace_entry(const LedgerEntry& entry) {
  if (entry.mechanism != Mechanism::laplace && entry.mechanism != Mechanism::propose_test_release)
    throw InvalidArgument(fmt::format("'{}': the Laplace mechanism needs a laplace ledger entry", entry.step));
  require_positive("Laplace noise scale b", entry.noise_scale);
}

}  // namespace

double laplace_mechanism(double value, const LedgerEntry& entry, Ledger& ledger, core::Rng& rng) {
  check_laplace_entry(entry);
  ledger.record(entry);
  return probed(value, value + core::laplace(rng, entry.noise_scale), entry);
}

void laplace_mechanism(Eigen::Ref<Eigen::MatrixXd> value, const LedgerEntry& entry, Ledger& ledger,
                       core::Rng& rng) {
  check_laplace_entry(entry);
  ledger.record(entry);
  probed_release(value, entry, [&](Eigen::Ref<Eigen::MatrixXd> v) {
    for (Eigen::Index j = 0; j < v.cols(); ++j)  // column-major: the draws fill_laplace makes
      for (Eigen::Index i = 0; i < v.rows(); ++i) v(i, j) += core::laplace(rng, entry.noise_scale);
  });
}

double bounded_laplace_mechanism(double value, const LedgerEntry& entry, Ledger& ledger, core::Rng& rng) {
  if (entry.mechanism != Mechanism::bounded_laplace)
    throw InvalidArgument(
        fmt::format("'{}': the bounded Laplace mechanism needs a bounded_laplace ledger entry", entry.step));
  const double noise = bounded_laplace(rng, entry.noise_scale, entry.truncation);
  ledger.record(entry);
  return probed(value, value + noise, entry);
}

double bounded_laplace(core::Rng& rng, double lambda, double tau) {
  require_positive("bounded Laplace scale lambda", lambda);
  require_positive("bounded Laplace bound tau", tau);
  const double sign = core::rademacher(rng);
  // spec: kumar2025 §1.3. With m = expm1(-tau/lambda) = -(1 - exp(-tau/lambda)) the magnitude is
  // -lambda log1p(U m); expm1/log1p keep it accurate when tau << lambda.
  const double magnitude = -lambda * std::log1p(core::uniform01(rng) * std::expm1(-tau / lambda));
  return sign * std::min(magnitude, tau);  // min: rounding must not leave the support
}

double bounded_laplace_min_tau(double sensitivity, double epsilon, double delta) {
  if (!(delta > 0 && delta < 1))
    throw InvalidArgument(fmt::format("delta must lie in (0, 1), got {}", delta));
  return laplace_scale(sensitivity, epsilon) * std::log(4.0 / delta);  // spec: kumar2025 Fact 2
}

}  // namespace dpb::alg
