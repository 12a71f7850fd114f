#include "algorithms/sparse/private_sparse_pca.hpp"

#include <fmt/format.h>
#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/sparse/sparse_matrix_ops.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kOwner = "kumar2025.priv_pca";

constexpr const char* kStep = "line 20: P_hat + N(0, sigma_priv^2) on all d^2 entries";

void require_public(const char* name, double value, double hi) {
  if (!(value > 0 && value <= hi))
    throw InvalidArgument(fmt::format("{}: {} must lie in (0, {:g}], got {}", kOwner, name, hi, value));
}

void require_public(const PrivPcaParams& params) {
  require_public("lambda_hat", params.lambda_hat, 1e300);
  require_public("gamma", params.gamma, 1.0);
  require_public("sigma2", params.sigma2, 1e300);
  params.block.validate(kOwner);
}

// Line 18 (spec: kumar2025 A5): Delta_P from Lemma 27 at rho = final_threshold tau (34 k tau).
double delta_p(bool rigorous, Eigen::Index k, double final_threshold, double tau, double gamma,
               double lambda) {
  const double lemma27 = 2 * static_cast<double>(k) * final_threshold * tau;
  return rigorous
             ? 8 * std::sqrt(2.0) * lemma27 / (gamma * (1 - gamma / 2) * lambda)  // 272 sqrt2 k tau / ...
             : 2 * std::sqrt(2.0) * lemma27 / (gamma * lambda);                   // 68 sqrt2 k tau / ...
}

}  // namespace

PrivPcaResult private_sparse_pca(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                 const PrivPcaParams& params, Ledger& ledger, core::Rng& rng) {
  validate_sparse_input(&X, k, privacy, true, 1, kOwner);
  require_public(params);
  const StableBlockConstants& K = params.block;
  const Eigen::Index d = X.rows();
  const BlockLayout layout = block_layout(params, X.cols(), d, privacy, kOwner);
  const double kk = static_cast<double>(k), tau = layout.tau, gamma = params.gamma,
               lambda = params.lambda_hat;
  PrivPcaResult out;
  // Eq. 28 (spec: kumar2025 A9), public inputs only: 34 k tau <= (gamma/16) lambda_hat, with 34 = 2 x 17.
  out.precondition_lhs = 2 * kk * K.final_threshold * tau;
  out.precondition_rhs = gamma * lambda / 16;
  out.precondition_holds = out.precondition_lhs <= out.precondition_rhs;
  // Lines 18-19: Delta_P (spec A5) and sigma_priv (spec A6), both public.
  out.Delta_P = delta_p(params.rigorous_sensitivity, k, K.final_threshold, tau, gamma, lambda);
  out.proven_Delta_P = delta_p(true, k, K.final_threshold, tau, gamma, lambda);
  out.sigma_priv = release_noise_sd(params, out.Delta_P, privacy, kOwner);
  if (!out.precondition_holds && !K.constants.scaled) {
    const std::string why = fmt::format(
        "Eq. 28 precondition fails: 34 k tau = {:g} > gamma lambda_hat / 16 = {:g} (tau = {:g} at block size "
        "{}); "
        "privacy is void without it. Use more samples per block, a smaller tau, or "
        "constants=scaled_not_private",
        out.precondition_lhs, out.precondition_rhs, tau, layout.block_size);
    if (!params.precondition_bottom) throw InvalidArgument(fmt::format("{}: {}", kOwner, why));
    out.bottom = why;
    out.blocks.m = layout.m;
    out.blocks.block_size = layout.block_size;
    out.blocks.tau = tau;
    return out;
  }
  // Lines 1-16: blocks, certification (with the lambda_1 condition of Alg 2), the two private tests.
  out.blocks =
      stable_block_average(X, layout.m, tau, CertificationRule{k, gamma, lambda}, privacy, K, ledger, rng);
  if (!out.blocks.passed()) {
    out.bottom = out.blocks.bottom;
    return out;
  }
  // Line 17: v_hat = v_1(T_{17 tau}(SigmaBar)); P_hat = v_hat v_hat^T.
  out.v_hat =
      core::top_eigenpairs(hard_threshold(out.blocks.SigmaBar, K.final_threshold * tau), 1).vectors.col(0);
  out.P_hat = out.v_hat * out.v_hat.transpose();
  // Lines 20-21: W iid N(0, sigma_priv^2) on all d^2 entries; P_til = sym(top_{k^2}(P_hat + W)).
  Eigen::MatrixXd noisy = out.P_hat;
  gaussian_mechanism(noisy, release_entry(kStep, out.proven_Delta_P, out.sigma_priv, privacy), ledger, rng);
  out.W_max = (noisy - out.P_hat).cwiseAbs().maxCoeff();
  TopEntries top = top_entries(noisy, k * k);
  out.top_entries_tie = top.tie_at_cutoff;
  out.P_til = 0.5 * (top.kept + top.kept.transpose());
  // Line 22: v_priv = v_1(P_til).
  out.v_priv = core::top_eigenpairs(out.P_til, 1).vectors.col(0);
  return out;
}

Ledger plan_private_sparse_pca_ledger(Eigen::Index n, Eigen::Index d, Eigen::Index k, const Privacy& privacy,
                                      const PrivPcaParams& params) {
  require_public(params);
  const BlockLayout layout = block_layout(params, n, d, privacy, kOwner);
  const auto sensitivity = [&](bool rigorous) {
    return delta_p(rigorous, k, params.block.final_threshold, layout.tau, params.gamma, params.lambda_hat);
  };
  return block_algorithm_ledger(params, layout.m, privacy, kStep, sensitivity(true),
                                release_noise_sd(params, sensitivity(params.rigorous_sensitivity), privacy, kOwner));
}

}  // namespace dpb::alg
