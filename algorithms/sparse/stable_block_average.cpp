#include "algorithms/sparse/stable_block_average.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "algorithms/mechanisms/laplace.hpp"
#include "algorithms/sparse/sparse_matrix_ops.hpp"
#include "core/errors.hpp"

namespace dpb::alg {
namespace {

void require_in(const std::string& owner, const char* name, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi))
    throw InvalidArgument(
        fmt::format("{}: {} must lie in [{:g}, {:g}], got {:g}", owner, name, lo, hi, value));
}

void require_at_least(const std::string& owner, const char* name, double value, double floor,
                      const char* why) {
  if (!(value >= floor * (1 - 1e-12)))  // tolerance: 3 (1 + 1/(2/3 - 1/2)) rounds above 21
    throw InvalidArgument(
        fmt::format("{}: {} = {:g} is below {:g}, which voids the privacy proof ({}); only "
                    "constants=scaled_not_private allows it",
                    owner, name, value, floor, why));
}

}  // namespace

void StableBlockConstants::validate(const std::string& owner) const {
  constexpr double kBig = 1e12;
  require_in(owner, "friend_radius", friend_radius, 1e-12, kBig);
  require_in(owner, "final_threshold", final_threshold, 1e-12, kBig);
  require_in(owner, "test_cutoff", test_cutoff, 1e-12, 1.0);
  require_in(owner, "ramp_low", ramp_low, 0.0, 1.0);
  require_in(owner, "ramp_high", ramp_high, 0.0, 1.0);
  if (!(ramp_low < ramp_high))
    throw InvalidArgument(
        fmt::format("{}: need ramp_low < ramp_high, got {:g} and {:g}", owner, ramp_low, ramp_high));
  require_in(owner, "count_noise_scale", count_noise_scale, 1e-12, kBig);
  require_in(owner, "mass_noise_scale", mass_noise_scale, 1e-12, kBig);
  require_in(owner, "tail_constant", tail_constant, 1.0 + 1e-12, kBig);
  if (constants.scaled) return;
  // spec: kumar2025 §3.2 (Lemmas 8-11) and §2.6: the directions in which each constant stays private.
  require_at_least(owner, "final_threshold", final_threshold, 4 * friend_radius + 1, "Lemma 11, spec §2.6");
  require_at_least(owner, "test_cutoff", test_cutoff, 0.8, "Lemma 10");
  require_at_least(owner, "ramp_low", ramp_low, 0.5, "Lemma 9: p_i > 0 must mean f_i > m/2");
  require_at_least(owner, "count_noise_scale", count_noise_scale, 3,
                   "Lemma 8: |C| has sensitivity 1 at eps/3");
  require_at_least(owner, "mass_noise_scale", mass_noise_scale, 3 * (1 + 1 / (ramp_high - ramp_low)),
                   "Lemma 8: 3 x the sensitivity of Z at eps/3");
  require_at_least(owner, "tail_constant", tail_constant, 12, "Fact 2 at delta/3: log(4/(delta/3))");
}

double StableBlockConstants::mass_sensitivity(Eigen::Index m) const {
  const double mm = static_cast<double>(m);
  return 1 + (mm - 1) / (mm * (ramp_high - ramp_low));  // spec: kumar2025 Eq. 27 (= 7 at the paper's ramp)
}

double default_c_tau(Eigen::Index d) {
  return 8 + 4 * std::sqrt(std::log(800.0) / std::log(static_cast<double>(d)));  // spec: kumar2025 A8, §4.5
}

double block_threshold(double tau, double c_tau, double sigma2, Eigen::Index d, Eigen::Index block_size) {
  if (tau > 0) return tau;
  const double c = c_tau > 0 ? c_tau : default_c_tau(d);
  return c * sigma2 *
         std::sqrt(std::log(static_cast<double>(d)) / static_cast<double>(block_size));  // Eq. 26
}

Eigen::Index block_count(long long m, Eigen::Index n, const Privacy& privacy, double beta,
                         const SparseConstants& constants, const std::string& owner) {
  if (!(beta > 0 && beta < 1))
    throw InvalidArgument(fmt::format("{}: beta must lie in (0, 1), got {}", owner, beta));
  if (m <= 0) {  // spec: kumar2025 A7
    const double f = constants.scaled ? constants.noise_factor : 1.0;
    const double by_test = std::ceil(420 * f / privacy.epsilon * std::log(12 / privacy.delta));
    const double by_beta = std::ceil(62 * std::log(8 / beta));
    m = static_cast<long long>(std::max({31.0, by_test, by_beta}));
  }
  if (!constants.scaled && m <= 30)
    throw InvalidArgument(
        fmt::format("{}: m = {} blocks; the privacy proof needs m > 30 (Lemma 10)", owner, m));
  if (m > n)
    throw InvalidArgument(
        fmt::format("{}: m = {} blocks but only n = {} samples; need m <= n (block size "
                    "floor(n/m) >= 1)",
                    owner, m, n));
  return static_cast<Eigen::Index>(m);
}

double release_noise_sd(double sensitivity, const Privacy& privacy, double multiplier, double log_constant,
                        const SparseConstants& constants, const std::string& owner) {
  require_in(owner, "gauss_multiplier", multiplier, 1e-12, 1e12);
  require_in(owner, "gauss_log_constant", log_constant, 1.0 + 1e-12, 1e12);
  if (!constants.scaled) {
    require_at_least(owner, "gauss_multiplier", multiplier, 6, "Fact 1 at (eps/3, delta/3)");
    require_at_least(owner, "gauss_log_constant", log_constant, 6, "Fact 1 at (eps/3, delta/3)");
  }
  return constants.noise(multiplier * sensitivity / privacy.epsilon *
                         std::sqrt(std::log(log_constant / privacy.delta)));
}

LedgerEntry count_test_entry(const Privacy& privacy, const StableBlockConstants& K) {
  const double scale = K.constants.noise(K.count_noise_scale / privacy.epsilon);
  return {.step = "line 3: |C| + BoundedLap (test of line 4)",
          .mechanism = Mechanism::bounded_laplace,
          .sensitivity = 1,
          .norm = SensitivityNorm::l1,
          .noise_scale = scale,
          .truncation = scale * std::log(K.tail_constant / privacy.delta),
          .neighbours = privacy.neighbours,
          .calibrated_for = {privacy.epsilon / 3, privacy.delta / 3}};
}

LedgerEntry mass_test_entry(Eigen::Index m, const Privacy& privacy, const StableBlockConstants& K) {
  const double scale = K.constants.noise(K.mass_noise_scale / privacy.epsilon);
  return {.step = "line 12: Z + BoundedLap (test of line 13)",
          .mechanism = Mechanism::bounded_laplace,
          .sensitivity = K.mass_sensitivity(m),
          .norm = SensitivityNorm::l1,
          .noise_scale = scale,
          .truncation = scale * std::log(K.tail_constant / privacy.delta),
          .neighbours = privacy.neighbours,
          .calibrated_for = {privacy.epsilon / 3, privacy.delta / 3}};
}

LedgerEntry release_entry(std::string step, double true_sensitivity, double sd, const Privacy& privacy) {
  return gaussian_entry(std::move(step), true_sensitivity, sd,
                        Privacy{privacy.epsilon / 3, privacy.delta / 3, privacy.neighbours});
}

BlockLayout block_layout(const BlockAlgorithmParams& p, Eigen::Index n, Eigen::Index d, const Privacy& privacy,
                         const std::string& owner) {
  return block_layout(n, d, p.m, p.tau, p.c_tau, p.sigma2, privacy, p.beta, p.block.constants, owner);
}

double release_noise_sd(const BlockAlgorithmParams& p, double sensitivity, const Privacy& privacy,
                        const std::string& owner) {
  return release_noise_sd(sensitivity, privacy, p.gauss_multiplier, p.gauss_log_constant, p.block.constants, owner);
}

Ledger block_algorithm_ledger(const BlockAlgorithmParams& p, Eigen::Index m, const Privacy& privacy,
                              std::string step, double proven_sensitivity, double sd) {
  Ledger plan;
  plan.record(count_test_entry(privacy, p.block));
  plan.record(mass_test_entry(m, privacy, p.block));
  plan.record(release_entry(std::move(step), proven_sensitivity, sd, privacy));
  return plan;
}

BlockLayout block_layout(Eigen::Index n, Eigen::Index d, long long m, double tau, double c_tau, double sigma2,
                         const Privacy& privacy, double beta, const SparseConstants& constants,
                         const std::string& owner) {
  if (tau < 0 || c_tau < 0)
    throw InvalidArgument(
        fmt::format("{}: tau and c_tau must be >= 0 (0 = derive), got {} and {}", owner, tau, c_tau));
  BlockLayout layout;
  layout.m = block_count(m, n, privacy, beta, constants, owner);
  layout.block_size = n / layout.m;  // spec: kumar2025 A23: floor(n/m), the remainder is dropped
  layout.tau = block_threshold(tau, c_tau, sigma2, d, layout.block_size);
  return layout;
}

StableBlockResult stable_block_average(const Eigen::MatrixXd& X, Eigen::Index m, double tau,
                                       const CertificationRule& rule, const Privacy& privacy,
                                       const StableBlockConstants& K, Ledger& ledger, core::Rng& rng) {
  const Eigen::Index d = X.rows();
  StableBlockResult out;
  out.m = m;
  out.block_size = X.cols() / m;
  out.tau = tau;
  const double mm = static_cast<double>(m), b = static_cast<double>(out.block_size);
  // Line 1: contiguous blocks, uncentred second moments by rank updates (spec: kumar2025 A23).
  std::vector<Eigen::MatrixXd> moments(static_cast<std::size_t>(m), Eigen::MatrixXd::Zero(d, d));
  for (Eigen::Index i = 0; i < m; ++i) {
    auto& S = moments[static_cast<std::size_t>(i)];
    S.selfadjointView<Eigen::Lower>().rankUpdate(X.middleCols(i * out.block_size, out.block_size), 1.0 / b);
    S.triangularView<Eigen::StrictlyUpper>() = S.transpose();
  }
  // Line 2: C = { i : A_i = T_tau(SigmaHat_i) is k-RCS, [lambda_1(A_i) >= (1 - gamma/2) lambda_hat,]
  // gamma(A_i) >= gamma/2 }; lambda_1(A_i) <= 0 leaves gamma_i undefined: not certified (A24).
  out.certified.assign(static_cast<std::size_t>(m), false);
  for (Eigen::Index i = 0; i < m; ++i) {
    const Eigen::MatrixXd A = hard_threshold(moments[static_cast<std::size_t>(i)], tau);
    if (!is_k_rcs(A, rule.k)) continue;
    const TopTwoEigenvalues ev = top_two_eigenvalues(A);
    if (!ev.gap_defined()) {
      ++out.nonpositive_blocks;
      continue;
    }
    const bool large = !rule.lambda_hat || ev.lambda1 >= (1 - rule.gamma / 2) * *rule.lambda_hat;
    if (large && ev.relative_gap() >= rule.gamma / 2) {
      out.certified[static_cast<std::size_t>(i)] = true;
      ++out.certified_count;
    }
  }
  // Lines 3-4: L ~ BoundedLap(3/eps, (3/eps) log(12/delta)); BOTTOM if |C| + L - bound < 0.8 m (strict).
  const LedgerEntry count_entry = count_test_entry(privacy, K);
  out.count_bound = count_entry.truncation;
  out.noisy_count =
      bounded_laplace_mechanism(static_cast<double>(out.certified_count), count_entry, ledger, rng);
  out.L = out.noisy_count - static_cast<double>(out.certified_count);
  const LedgerEntry mass_entry = mass_test_entry(m, privacy, K);
  out.mass_bound = mass_entry.truncation;
  if (out.noisy_count - out.count_bound < K.test_cutoff * mm) {
    out.bottom = "line 4: |C| + L - (3/eps) log(12/delta) < 0.8 m";
    return out;
  }
  // Lines 7-9: f_i = #{ j : ||SigmaHat_j - SigmaHat_i||_{inf,inf} <= 4 tau } (j = i included);
  // p_i = clip((f_i - m/2) / (2m/3 - m/2), 0, 1).
  out.f = friend_counts(moments, K.friend_radius * tau);
  const double low = K.ramp_low * mm, high = K.ramp_high * mm;
  out.p = ((out.f.array() - low) / (high - low)).max(0.0).min(1.0).matrix();
  out.Z = out.p.sum();  // line 11
  // Lines 12-13: xi ~ BoundedLap(21/eps, (21/eps) log(12/delta)); BOTTOM if Z + xi - bound <= 0.8 m.
  out.noisy_mass = bounded_laplace_mechanism(out.Z, mass_entry, ledger, rng);
  out.xi = *out.noisy_mass - out.Z;
  if (*out.noisy_mass - out.mass_bound <= K.test_cutoff * mm) {
    out.bottom = "line 13: Z + xi - (21/eps) log(12/delta) <= 0.8 m";
    return out;
  }
  // Line 16: SigmaBar = (1/Z) sum_i p_i SigmaHat_i.
  out.SigmaBar = Eigen::MatrixXd::Zero(d, d);
  for (Eigen::Index i = 0; i < m; ++i)
    if (out.p[i] > 0) out.SigmaBar += out.p[i] * moments[static_cast<std::size_t>(i)];
  out.SigmaBar /= out.Z;
  return out;
}

}  // namespace dpb::alg
