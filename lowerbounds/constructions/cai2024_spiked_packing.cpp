#include "lowerbounds/constructions/cai2024_spiked_packing.hpp"

#include <fmt/core.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/linalg.hpp"

namespace dpb::lower {

namespace {

// eps0 search: a fixed log grid on [kSmallestEps0, 1/sqrt 2] (the spec's range, §5.2 recipe (a)), about
// 18% apart. Fixed, so the bound is exactly monotone wherever Lemma 6 is at each eps0.
constexpr double kSmallestEps0 = 1e-9;
constexpr int kGridPoints = 128;

void require_valid(const SpikedFanoProblem& pr) {
  if (pr.r < 1 || 2 * pr.r > pr.p)
    throw InvalidArgument(
        fmt::format("cai2024 spiked family: need 1 <= r and 2r <= p, got p = {}, r = {}", pr.p, pr.r));
  if (!(pr.spike > 0) || !(pr.noise > 0) || !std::isfinite(pr.spike) || !std::isfinite(pr.noise))
    throw InvalidArgument(fmt::format(
        "cai2024 spiked family: spike and noise must be finite and > 0, got {} and {}", pr.spike, pr.noise));
  if (!(pr.n >= 1) || !std::isfinite(pr.n))
    throw InvalidArgument(fmt::format("cai2024 spiked family: sample size n must be >= 1, got {}", pr.n));
  if (!(pr.loss_scale > 0) || !(pr.normalization > 0) || !(pr.packing_constant >= 0))
    throw InvalidArgument(
        "cai2024 spiked family: loss_scale and normalization must be > 0, packing_constant >= 0");
}

double schatten_of_sines(const Eigen::VectorXd& sines, double q) {
  // The singular values of P_i - P_j are the principal sines, each twice.
  if (std::isinf(q)) return sines.maxCoeff();
  return std::pow(2 * sines.array().pow(q).sum(), 1 / q);
}

}  // namespace

Eigen::MatrixXd lift_frame(const Eigen::MatrixXd& V, double eps0) {
  if (!(eps0 > 0 && eps0 < 1))
    throw InvalidArgument(fmt::format("lift_frame: eps0 must lie in (0, 1), got {}", eps0));
  const Eigen::Index r = V.cols();
  Eigen::MatrixXd U(V.rows() + r, r);
  U.topRows(r) = std::sqrt(1 - eps0 * eps0) * Eigen::MatrixXd::Identity(r, r);
  U.bottomRows(V.rows()) = eps0 * V;
  return U;
}

Eigen::MatrixXd spiked_covariance(const Eigen::MatrixXd& U, double spike, double noise) {
  Eigen::MatrixXd Sigma = spike * U * U.transpose();
  Sigma.diagonal().array() += noise;
  return Sigma;
}

double equal_spike_kl(double spike, double noise, double projector_fro2) {
  return spike * spike / (4 * noise * (spike + noise)) * projector_fro2;
}

// For lifted frames U_i, U_j: A = U_j^T U_i = (1 - e^2) I + e^2 H with H = V_j^T V_i, and
//   (I - U_j U_j^T) U_i = [ sqrt(1 - e^2) e^2 B ; e (V_i - V_j) + e^3 V_j B ],  B = I - H.
// Using (V_i - V_j)^T (V_i - V_j) = B + B^T and (V_i - V_j)^T V_j = -B^T, its Gram matrix is
//   e^2 [ (B + B^T) - e^2 B^T B ],
// whose eigenvalues are the squared principal sines. Both r x r parts are computed once per pair.
LiftedSubspacePacking::LiftedSubspacePacking(const SubspacePacking& base) : count_(base.size()) {
  for (std::size_t i = 0; i < count_; ++i)
    for (std::size_t j = i + 1; j < count_; ++j) {
      const Eigen::MatrixXd difference = base.frames[i] - base.frames[j];
      const Eigen::Index r = difference.cols();
      const Eigen::MatrixXd B = Eigen::MatrixXd::Identity(r, r) - base.frames[j].transpose() * base.frames[i];
      symmetric_part_.push_back(difference.transpose() * difference);
      gram_part_.push_back(B.transpose() * B);
    }
}

std::size_t LiftedSubspacePacking::pair_index(std::size_t i, std::size_t j) const {
  if (i > j) std::swap(i, j);
  if (i == j || j >= count_)
    throw InvalidArgument(
        fmt::format("lifted packing: need two distinct frames below {}, got {} and {}", count_, i, j));
  return i * count_ - i * (i + 1) / 2 + (j - i - 1);
}

Eigen::VectorXd LiftedSubspacePacking::principal_sines(std::size_t i, std::size_t j, double eps0) const {
  const std::size_t k = pair_index(i, j);
  const Eigen::MatrixXd gram = symmetric_part_[k] - eps0 * eps0 * gram_part_[k];
  return eps0 * core::symmetric_eigenvalues(gram).cwiseMax(0.0).cwiseSqrt();
}

LiftedSubspacePacking::Geometry LiftedSubspacePacking::geometry(double eps0, double q) const {
  Geometry g{std::numeric_limits<double>::infinity(), 0.0};
  for (std::size_t i = 0; i < count_; ++i)
    for (std::size_t j = i + 1; j < count_; ++j) {
      // ||P_i - P_j||_F^2 = 2 sum sin^2 = 2 eps0^2 tr(gram): no eigenvalues needed for it (nor for q = 2).
      const std::size_t k = pair_index(i, j);
      const double fro2 =
          std::max(0.0, 2 * eps0 * eps0 * (symmetric_part_[k].trace() - eps0 * eps0 * gram_part_[k].trace()));
      g.max_fro2 = std::max(g.max_fro2, fro2);
      const double distance = q == 2 ? std::sqrt(fro2) : schatten_of_sines(principal_sines(i, j, eps0), q);
      g.min_distance = std::min(g.min_distance, distance);
    }
  return g;
}

SpikedFanoBound spiked_dp_fano_bound(const SpikedFanoProblem& pr) {
  require_valid(pr);
  const SubspacePackingSpec spec{pr.p - pr.r,
                                 pr.r,
                                 pr.q,
                                 pr.packing_constant * std::pow(static_cast<double>(pr.r), 1 / pr.q),
                                 pr.packing_size,
                                 pr.packing_candidates,
                                 pr.seed};
  const SubspacePacking packing = build_subspace_packing(spec);
  if (packing.size() < 2)
    throw InvalidArgument(
        fmt::format("cai2024 spiked family: the packing kept {} frame(s); Fano needs >= 2 "
                    "(raise packing_candidates or lower packing_constant)",
                    packing.size()));
  const LiftedSubspacePacking lifted(packing);

  const auto evaluate = [&](double eps0) {
    const auto g = lifted.geometry(eps0, pr.q);
    const double kl = equal_spike_kl(pr.spike, pr.noise, g.max_fro2);
    DpFanoCai2024Input in;
    in.log_size = packing.log_size();
    in.separation = pr.loss_scale * g.min_distance / pr.normalization;
    in.kl = pr.n * kl;
    in.tv_sum = pr.n * std::min(1.0, std::sqrt(kl / 2));
    in.eps = pr.eps;
    in.delta = pr.delta;
    in.exponent = pr.exponent;
    return dp_fano_cai2024(in);
  };
  SpikedFanoBound best;
  best.log_size = packing.log_size();
  const double low = std::log(kSmallestEps0), high = std::log(1 / std::sqrt(2.0));
  for (int k = 0; k < kGridPoints; ++k) {
    const double eps0 = std::exp(low + (high - low) * k / (kGridPoints - 1));
    const auto terms = evaluate(eps0);
    if (k == 0 || terms.value() > best.value) best = {terms.value(), eps0, best.log_size, terms};
  }
  return best;
}

}  // namespace dpb::lower
