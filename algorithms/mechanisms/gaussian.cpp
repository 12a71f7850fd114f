#include "algorithms/mechanisms/gaussian.hpp"

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "algorithms/mechanisms/probed_release.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {

void check_common(double sensitivity, double epsilon, double delta) {
  if (!(std::isfinite(sensitivity) && sensitivity > 0))
    throw InvalidArgument(fmt::format("sensitivity must be a finite number > 0, got {}", sensitivity));
  validate_epsilon(epsilon);
  if (!(delta > 0 && delta < 1))
    throw InvalidArgument(fmt::format("delta must lie in (0, 1) for the Gaussian mechanism, got {}", delta));
}

// Phi(x) and e^a Phi(x) without overflow: Phi via erfc, the product in log space.
double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double exp_times_normal_cdf(double a, double x) {
  const double phi = normal_cdf(x);
  return phi > 0 ? std::exp(a + std::log(phi)) : 0.0;
}

}  // namespace

bool classical_gaussian_applies(double epsilon, double delta) {
  return epsilon > 0 && epsilon < 1 && delta > 0 && delta < 1;
}

double classical_gaussian_sigma(double sensitivity, double epsilon, double delta) {
  check_common(sensitivity, epsilon, delta);
  if (!classical_gaussian_applies(epsilon, delta))
    throw InvalidArgument(fmt::format(
        "the classical Gaussian calibration needs 0 < epsilon < 1, got epsilon = {}; use the analytic "
        "Gaussian mechanism for larger epsilon",
        epsilon));
  return sensitivity * std::sqrt(2.0 * std::log(1.25 / delta)) / epsilon;
}

double gaussian_delta(double z, double epsilon) {
  if (!(z > 0)) throw InvalidArgument("noise multiplier must be > 0");
  if (!(epsilon >= 0)) throw InvalidArgument("epsilon must be >= 0");
  const double a = 1.0 / (2.0 * z), b = epsilon * z;
  return std::max(0.0, normal_cdf(a - b) - exp_times_normal_cdf(epsilon, -a - b));
}

double gaussian_epsilon(double z, double delta) {
  if (!(delta > 0 && delta < 1)) throw InvalidArgument("delta must lie in (0, 1)");
  if (gaussian_delta(z, 0.0) <= delta) return 0.0;
  // delta(eps) decreases in eps: bracket, then solve delta(eps) = delta.
  double hi = 1.0;
  while (gaussian_delta(z, hi) > delta) hi *= 2;
  boost::uintmax_t iterations = 200;
  const auto [lo_eps, hi_eps] = boost::math::tools::toms748_solve(
      [&](double eps) { return gaussian_delta(z, eps) - delta; }, 0.0, hi,
      boost::math::tools::eps_tolerance<double>(50), iterations);
  return hi_eps;  // the side where delta(eps) <= delta
}

double analytic_gaussian_sigma(double sensitivity, double epsilon, double delta) {
  check_common(sensitivity, epsilon, delta);
  // delta(eps; z) decreases in z. Solve in log z so the bracket spans many orders of magnitude.
  const auto excess = [&](double log_z) { return (gaussian_delta(std::exp(log_z), epsilon) - delta) / delta; };
  double lo = -1.0, hi = 1.0;
  while (excess(lo) < 0) lo -= 2;
  while (excess(hi) > 0) hi += 2;
  boost::uintmax_t iterations = 300;
  const auto [a, b] = boost::math::tools::toms748_solve(excess, lo, hi, boost::math::tools::eps_tolerance<double>(52),
                                                        iterations);
  (void)a;
  return sensitivity * std::exp(b);  // the upper end: delta(eps; z) <= delta holds there
}

GaussianCalibration parse_gaussian_calibration(const std::string& name, const std::string& owner) {
  if (name == "classical") return GaussianCalibration::classical;
  if (name == "analytic") return GaussianCalibration::analytic;
  throw InvalidArgument(
      fmt::format("{}: Gaussian calibration must be 'classical' or 'analytic', got '{}'", owner, name));
}

std::string to_string(GaussianCalibration c) { return c == GaussianCalibration::classical ? "classical" : "analytic"; }

double gaussian_sigma(GaussianCalibration calibration, double sensitivity, double epsilon, double delta) {
  return calibration == GaussianCalibration::classical ? classical_gaussian_sigma(sensitivity, epsilon, delta)
                                                       : analytic_gaussian_sigma(sensitivity, epsilon, delta);
}

namespace {

thread_local double noise_factor = 1;
thread_local NoiseDefect noise_defect = NoiseDefect::recorded;

// The entry as drawn: `entry` itself, or under ScopedGaussianNoiseFactor a copy with its sd scaled (kept in
// `scaled`, so the common path copies nothing).
const LedgerEntry& as_drawn(const LedgerEntry& entry, LedgerEntry& scaled) {
  if (noise_factor == 1) return entry;
  scaled = entry;
  scaled.noise_scale *= noise_factor;
  return scaled;
}

// The entry the ledger and a probe are shown: the drawn one, unless the defect is hidden.
const LedgerEntry& as_declared(const LedgerEntry& asked, const LedgerEntry& drawn) {
  return noise_defect == NoiseDefect::hidden ? asked : drawn;
}

void check_gaussian_entry(const LedgerEntry& entry) {
  if (entry.mechanism != Mechanism::gaussian && entry.mechanism != Mechanism::shuffled_gaussian)
    throw InvalidArgument(fmt::format("'{}': the Gaussian mechanism needs a gaussian ledger entry", entry.step));
  if (!(entry.noise_scale >= 0 && std::isfinite(entry.noise_scale)))
    throw InvalidArgument(fmt::format("'{}': Gaussian noise scale must be finite and >= 0, got {}", entry.step,
                                      entry.noise_scale));
}

}  // namespace

ScopedGaussianNoiseFactor::ScopedGaussianNoiseFactor(double factor, NoiseDefect defect)
    : previous_(noise_factor), previous_defect_(noise_defect) {
  if (!(factor > 0 && std::isfinite(factor)))
    throw InvalidArgument(fmt::format("Gaussian noise factor must be a finite number > 0, got {}", factor));
  noise_factor = factor;
  noise_defect = defect;
}

ScopedGaussianNoiseFactor::~ScopedGaussianNoiseFactor() {
  noise_factor = previous_;
  noise_defect = previous_defect_;
}

void gaussian_mechanism(Eigen::Ref<Eigen::MatrixXd> value, const LedgerEntry& asked, Ledger& ledger,
                        core::Rng& rng) {
  check_gaussian_entry(asked);
  LedgerEntry scaled;
  const LedgerEntry& drawn = as_drawn(asked, scaled);
  const LedgerEntry& declared = as_declared(asked, drawn);
  ledger.record(declared);
  probed_release(value, declared,
                 [&](Eigen::Ref<Eigen::MatrixXd> v) { core::add_gaussian_noise(rng, drawn.noise_scale, v); });
}

void symmetric_gaussian_mechanism(Eigen::MatrixXd& value, const LedgerEntry& asked, Ledger& ledger,
                                  core::Rng& rng) {
  check_gaussian_entry(asked);
  if (value.rows() != value.cols()) throw InvalidArgument("symmetric Gaussian mechanism: the value must be square");
  LedgerEntry scaled;
  const LedgerEntry& drawn = as_drawn(asked, scaled);
  const LedgerEntry& declared = as_declared(asked, drawn);
  ledger.record(declared);
  LedgerProbe* probe = active_probe();
  // The probe sees the upper triangle with the diagonal, the vector the sensitivity is declared for.
  const auto upper = [](const Eigen::MatrixXd& m) {
    std::vector<double> v;
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      for (Eigen::Index i = 0; i <= j; ++i) v.push_back(m(i, j));
    return v;
  };
  std::vector<double> statistic;
  if (probe) statistic = upper(value);
  value += core::symmetric_gaussian(rng, value.rows(), drawn.noise_scale);
  if (!probe) return;
  std::vector<double> release = upper(value);
  probe->observe(declared, statistic, {}, release, ProbedRelease::drawn);
  std::size_t at = 0;
  for (Eigen::Index j = 0; j < value.cols(); ++j)
    for (Eigen::Index i = 0; i <= j; ++i) value(i, j) = value(j, i) = release[at++];
}

}  // namespace dpb::alg
