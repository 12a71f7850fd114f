#include "algorithms/baselines/analyze_gauss.hpp"

#include <fmt/format.h>
#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"

namespace dpb::alg::baselines {

double psd_sum_sensitivity(double trace_bound, Neighbours neighbours) {
  return neighbours == Neighbours::replace ? std::sqrt(2.0) * trace_bound : trace_bound;
}

double achieved_epsilon(double noise_sd, double sensitivity, double delta) {
  return gaussian_epsilon(noise_sd / sensitivity, delta);
}

Eigen::MatrixXd analyze_gauss_release(const Eigen::MatrixXd& S, const LedgerEntry& release, Ledger& ledger,
                                      core::Rng& rng) {
  Eigen::MatrixXd noisy = S;
  symmetric_gaussian_mechanism(noisy, release, ledger, rng);
  return noisy;
}

core::EigenPairs analyze_gauss(const Eigen::MatrixXd& S, Eigen::Index k, const LedgerEntry& release,
                               Ledger& ledger, core::Rng& rng) {
  return core::top_eigenpairs(analyze_gauss_release(S, release, ledger, rng), k);
}

void require_gaussian_privacy(const Privacy& privacy, const std::string& owner) {
  try {
    validate(privacy);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(fmt::format("{}: {}", owner, e.what()));
  }
  if (!(privacy.delta > 0))
    throw InvalidArgument(fmt::format("{}: the Gaussian mechanism needs delta in (0, 1), got delta = {}",
                                      owner, privacy.delta));
}

void require_rank(int k, Eigen::Index max_k, const std::string& owner, const std::string& why) {
  if (k < 1 || k > max_k)
    throw InvalidArgument(fmt::format("{}: need 1 <= k <= {} ({}), got k = {}", owner, max_k, why, k));
}

double oracle_value(const Input& in, const std::string& name, const std::string& owner,
                    const std::string& alternative) {
  if (in.oracle) {
    const auto it = in.oracle->params.find(name);
    if (it != in.oracle->params.end()) return it->second;
  }
  throw InvalidArgument(
      fmt::format("{}: needs the population quantity '{}' from the model oracle, which is {}; "
                  "on data without an oracle give {}",
                  owner, name, in.oracle ? "missing it" : "absent", alternative));
}

PrivacyClaim gaussian_release_claim(const Privacy& privacy, double noise_sd, double true_sensitivity,
                                    std::vector<std::string> conditions) {
  PrivacyClaim claim{privacy.epsilon, privacy.delta, privacy.neighbours, ClaimScope::worst_case,
                     std::move(conditions)};
  const double eps = achieved_epsilon(noise_sd, true_sensitivity, privacy.delta);
  // Tolerance: the calibrations solve for the sd to ~1e-15 relative; only a real shortfall counts.
  if (eps > privacy.epsilon * (1 + 1e-9)) {
    claim.epsilon = eps;
    claim.conditions.push_back(
        fmt::format("the noise as printed is too small for {} neighbours: exact privacy profile gives eps = "
                    "{:.4g}, not the "
                    "requested {:g}",
                    to_string(privacy.neighbours), eps, privacy.epsilon));
  }
  return claim;
}

PrivacyClaim not_private_claim(const Privacy& nominal, std::vector<std::string> conditions) {
  return {nominal.epsilon, nominal.delta, nominal.neighbours, ClaimScope::not_private, std::move(conditions)};
}

}  // namespace dpb::alg::baselines
