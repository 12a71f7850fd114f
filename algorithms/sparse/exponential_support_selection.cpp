#include "algorithms/sparse/exponential_support_selection.hpp"

#include <fmt/format.h>
#include <cmath>
#include <numeric>

#include "algorithms/mechanisms/bingham.hpp"
#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/exponential_mechanism.hpp"
#include "algorithms/sparse/sparse_common.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {
namespace {
constexpr const char* kOwner = "kumar2025.exp_mech_support";
}  // namespace

double support_count(Eigen::Index d, Eigen::Index k) {
  if (k < 0 || k > d) return 0;
  double count = 1;
  for (Eigen::Index i = 1; i <= k; ++i)
    count = count * static_cast<double>(d - k + i) / static_cast<double>(i);
  return std::round(count);
}

std::vector<std::vector<Eigen::Index>> enumerate_supports(Eigen::Index d, Eigen::Index k,
                                                          double max_supports) {
  if (k < 1 || k > d)
    throw InvalidArgument(fmt::format("{}: need 1 <= k <= d, got d = {}, k = {}", kOwner, d, k));
  const double count = support_count(d, k);
  if (count > max_supports)
    throw InvalidArgument(
        fmt::format("{}: exact enumeration of C(d, k) = C({}, {}) = {:.4g} supports exceeds max_supports = "
                    "{:g}; reduce d or k, "
                    "or raise max_supports (each support costs a k x k eigenproblem)",
                    kOwner, d, k, count, max_supports));
  std::vector<std::vector<Eigen::Index>> out;
  out.reserve(static_cast<std::size_t>(count));
  std::vector<Eigen::Index> s(static_cast<std::size_t>(k));
  std::iota(s.begin(), s.end(), Eigen::Index{0});
  while (true) {
    out.push_back(s);
    // Next combination in lexicographic order: bump the rightmost index that can move.
    Eigen::Index i = k - 1;
    while (i >= 0 && s[static_cast<std::size_t>(i)] == d - k + i) --i;
    if (i < 0) break;
    ++s[static_cast<std::size_t>(i)];
    for (Eigen::Index j = i + 1; j < k; ++j)
      s[static_cast<std::size_t>(j)] = s[static_cast<std::size_t>(j - 1)] + 1;
  }
  return out;
}

ExpMechSupportResult exponential_support_selection(const Eigen::MatrixXd& X, Eigen::Index k,
                                                   const Privacy& privacy, const ExpMechSupportParams& params,
                                                   Ledger& ledger, core::Rng& rng) {
  validate_sparse_input(&X, k, privacy, false, 1, kOwner);
  if (privacy.delta != 0)
    throw InvalidArgument(
        fmt::format("{}: Algorithm 4 is pure eps-DP; give delta = 0, got {}", kOwner, privacy.delta));
  const bool private_vector = params.release == ExpMechSupportParams::Release::exponential_mechanism;
  if (private_vector && !(params.selection_share > 0 && params.selection_share < 1))
    throw InvalidArgument(fmt::format("{}: selection_share must lie in (0, 1), got {}", kOwner,
                                      params.selection_share));
  const Eigen::Index d = X.rows(), n = X.cols();
  ExpMechSupportResult out;
  // Line 1: S_k, refused beyond the size guard before any work.
  const auto supports = enumerate_supports(d, k, params.max_supports);
  // spec: kumar2025 A26: tau = sigma sqrt(2 log(2 n d / beta)) unless given.
  if (params.tau > 0) {
    out.tau = params.tau;
  } else {
    if (!(params.sigma2 > 0) || !(params.beta > 0 && params.beta < 1))
      throw InvalidArgument(
          fmt::format("{}: the default tau needs sigma2 > 0 and beta in (0, 1); got {} and {}", kOwner,
                      params.sigma2, params.beta));
    out.tau = std::sqrt(params.sigma2 * 2 * std::log(2 * static_cast<double>(n * d) / params.beta));
  }
  // Lines 2-6: z_i = Trunc_tau(x_i). SigmaHat^tau_S = (1/n) sum z_{i,S} z_{i,S}^T is the S x S block of the
  // full clipped second moment, which one rank update computes for every S at once.
  Eigen::MatrixXd Z = X;
  out.clipped_coordinates = truncate_coordinates(Z, out.tau);
  const Eigen::MatrixXd moment = core::second_moment(Z);
  // Lines 7-10: q_D(S) = lambda_1(SigmaHat^tau_S).
  Eigen::MatrixXd block(k, k);  // reused: no allocation per support
  const auto restrict_to = [&](const std::vector<Eigen::Index>& S) {
    for (Eigen::Index b = 0; b < k; ++b)
      for (Eigen::Index a = 0; a < k; ++a)
        block(a, b) = moment(S[static_cast<std::size_t>(a)], S[static_cast<std::size_t>(b)]);
  };
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(k);
  out.scores.reserve(supports.size());
  for (const auto& S : supports) {
    restrict_to(S);
    solver.compute(block, Eigen::EigenvaluesOnly);
    out.scores.push_back(solver.eigenvalues()[k - 1]);
  }
  // Line 11: P_D(S) ~ exp(eps n q_D(S) / (4 k tau^2)) = exp(eps q / (2 Delta_q)), Delta_q = 2 k tau^2 / n
  // (Lemma 38), sampled exactly by Gumbel-max.
  out.sensitivity = 2 * static_cast<double>(k) * out.tau * out.tau / static_cast<double>(n);
  out.selection_epsilon = private_vector ? params.selection_share * privacy.epsilon : privacy.epsilon;
  out.support_rank = static_cast<Eigen::Index>(exponential_mechanism(
      out.scores, Privacy{out.selection_epsilon, 0, privacy.neighbours}, out.sensitivity,
      "line 11: exponential mechanism over the C(d, k) supports (Lemma 38)", ledger, rng));
  out.support = supports[static_cast<std::size_t>(out.support_rank)];
  restrict_to(out.support);
  Eigen::VectorXd v;
  if (private_vector) {
    // The score n v^T SigmaHat_S v = sum_i (v^T z_{i,S})^2 has terms in [0, ||z_{i,S}||^2] <= [0, k tau^2]:
    // sensitivity k tau^2, so v ~ exp(eps_v n v^T SigmaHat_S v / (2 k tau^2)) on the k-sphere is eps_v-DP.
    // As a score on SigmaHat_S itself: replacing one record moves SigmaHat_S by (z z^T - z' z'^T)_S / n, of
    // spectral norm <= k tau^2 / n (both terms PSD): exp(scale v^T SigmaHat_S v) is (2 scale k tau^2/n)-DP.
    const double vector_epsilon = privacy.epsilon - out.selection_epsilon;
    const double scale = vector_epsilon * static_cast<double>(n) / (2 * static_cast<double>(k) * out.tau * out.tau);
    const BinghamDraw draw = sphere_exponential_mechanism(
        block, scale, static_cast<double>(k) * out.tau * out.tau / static_cast<double>(n),
        Privacy{vector_epsilon, 0, privacy.neighbours},
        "v on S_hat: exponential mechanism on the k-sphere (Bingham)", ledger, rng);
    v = draw.x;
    out.proposals = draw.proposals;
  } else {
    // Lines 12-13 as printed: the top eigenvector of SigmaHat^tau on S_hat, without noise. A unit vector
    // moves by up to 2 in l2; the ledger shows the release, which no noise covers.
    v = core::top_eigenpairs(block, 1).vectors.col(0);
    ledger.record(
        exact_entry("lines 12-13 as printed: top eigenvector on S_hat, no noise", 2, privacy.neighbours));
  }
  out.v_hat = Eigen::VectorXd::Zero(d);
  for (Eigen::Index a = 0; a < k; ++a) out.v_hat[out.support[static_cast<std::size_t>(a)]] = v[a];
  return out;
}

}  // namespace dpb::alg
