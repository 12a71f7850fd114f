#include "lowerbounds/constructions/fingerprinting.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <cmath>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/metrics.hpp"
#include "core/samplers.hpp"

namespace dpb::lower {

namespace {

// What one trial contributes: both scores, the estimate's Frobenius loss, and model-specific terms.
template <std::size_t Extras>
struct TrialScores {
  double z = 0, z_prime = 0, loss = 0;
  std::array<double, Extras> extras{};
};

template <std::size_t Extras>
struct Accumulated {
  ScoreMoments scores;
  std::array<double, Extras> extras{};
};

// Runs `trial` `trials` times and averages; the only loop both models share.
template <std::size_t Extras, class Trial>
Accumulated<Extras> run_trials(Eigen::Index n, int trials, const Trial& trial) {
  if (n < 1 || trials < 2)
    throw InvalidArgument(
        fmt::format("fingerprinting: need n >= 1 and trials >= 2, got n = {}, trials = {}", n, trials));
  Accumulated<Extras> out;
  ScoreMoments& s = out.scores;
  double difference2 = 0, loss4 = 0;
  for (int t = 0; t < trials; ++t) {
    const TrialScores<Extras> one = trial();
    s.z += one.z;
    s.z_prime += one.z_prime;
    s.abs_z_prime += std::abs(one.z_prime);
    s.z2 += one.z * one.z;
    s.z_prime2 += one.z_prime * one.z_prime;
    difference2 += (one.z - one.z_prime) * (one.z - one.z_prime);
    loss4 += std::pow(one.loss, 4);
    for (std::size_t e = 0; e < Extras; ++e) out.extras[e] += one.extras[e];
  }
  const double T = trials;
  s.trials = trials;
  for (double* m : {&s.z, &s.z_prime, &s.abs_z_prime, &s.z2, &s.z_prime2}) *m /= T;
  for (double& e : out.extras) e /= T;
  const double mean_difference = s.z - s.z_prime;
  const double variance = std::max(0.0, (difference2 / T - mean_difference * mean_difference) * T / (T - 1));
  s.difference_se = std::sqrt(variance / T);
  s.rho = std::pow(loss4 / T, 0.25);
  return out;
}

// A uniform index in [0, n).
Eigen::Index uniform_index(core::Rng& rng, Eigen::Index n) {
  return std::min(n - 1, static_cast<Eigen::Index>(core::uniform01(rng) * static_cast<double>(n)));
}

// X with column i replaced by x.
Eigen::MatrixXd replaced(Eigen::MatrixXd X, Eigen::Index i, const Eigen::VectorXd& x) {
  X.col(i) = x;
  return X;
}

double inner(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) { return (A.array() * B.array()).sum(); }

Eigen::MatrixXd top_projector(const Eigen::MatrixXd& S) {
  const Eigen::VectorXd v = core::top_eigenpairs(S, 1).vectors.col(0);
  return v * v.transpose();
}

}  // namespace

double model3_score(const Model3& model, const Eigen::MatrixXd& estimate, const Eigen::MatrixXd& sigma,
                    const Eigen::VectorXd& x) {
  return inner(estimate - sigma, model.project(x * x.transpose()) - sigma);
}

double model4_score(const Eigen::VectorXd& direction, const Eigen::MatrixXd& top_projector,
                    const Eigen::MatrixXd& sigma, const Eigen::VectorXd& x) {
  const Eigen::VectorXd v = core::safe_normalize(direction);
  return inner(v * v.transpose() - top_projector, x * x.transpose() - sigma);
}

Model3Fingerprinting model3_fingerprinting(const Model3& model, Eigen::Index n,
                                           const CovarianceMechanism& mechanism, int trials, core::Rng& rng) {
  const auto acc = run_trials<4>(n, trials, [&] {
    const Eigen::MatrixXd sigma = model.draw_covariance(rng);
    const Eigen::MatrixXd X = model.sample(sigma, n, rng);
    const Eigen::Index i = uniform_index(rng, n);
    const Eigen::VectorXd fresh = model.sample(sigma, 1, rng).col(0);
    const Eigen::MatrixXd estimate = mechanism(X, rng);
    const Eigen::MatrixXd neighbour_estimate = mechanism(replaced(X, i, fresh), rng);
    const Eigen::MatrixXd projected = model.project(core::second_moment(X));
    TrialScores<4> one;
    one.z = model3_score(model, estimate, sigma, X.col(i));
    one.z_prime = model3_score(model, neighbour_estimate, sigma, X.col(i));
    one.loss = (estimate - sigma).norm();
    one.extras = {inner(estimate - sigma, projected - sigma), (projected - sigma).squaredNorm(),
                  (estimate - projected).squaredNorm(), (model.posterior_mean(X) - projected).squaredNorm()};
    return one;
  });
  return {acc.scores, acc.extras[0], acc.extras[1], acc.extras[2], acc.extras[3]};
}

Model4Fingerprinting model4_fingerprinting(const Model4& model, Eigen::Index n,
                                           const DirectionMechanism& mechanism, int trials, core::Rng& rng) {
  const auto acc = run_trials<1>(n, trials, [&] {
    const Eigen::MatrixXd sigma = model.draw_covariance(rng);
    const Eigen::MatrixXd P = top_projector(sigma);
    const Eigen::MatrixXd X = model.sample(sigma, n, rng);
    const Eigen::Index i = uniform_index(rng, n);
    const Eigen::VectorXd fresh = model.sample(sigma, 1, rng).col(0);
    const Eigen::VectorXd v = core::safe_normalize(mechanism(X, rng));
    const Eigen::VectorXd neighbour_v = mechanism(replaced(X, i, fresh), rng);
    const Eigen::MatrixXd estimate = v * v.transpose();
    TrialScores<1> one;
    one.z = model4_score(v, P, sigma, X.col(i));
    one.z_prime = model4_score(neighbour_v, P, sigma, X.col(i));
    one.loss = (estimate - P).norm();
    one.extras = {inner(estimate - P, core::second_moment(X) - sigma)};
    return one;
  });
  return {acc.scores, acc.extras[0]};
}

Inequality eq53(const ScoreMoments& s, double eps, double delta) {
  if (!(eps >= 0) || !(delta >= 0 && delta <= 1))
    throw InvalidArgument(
        fmt::format("Eq. 53: need eps >= 0 and delta in [0, 1], got eps = {}, delta = {}", eps, delta));
  return {std::abs(s.z - s.z_prime),
          2 * eps * s.abs_z_prime + 2 * std::sqrt(delta) * std::sqrt(s.z2 + s.z_prime2)};
}

Inequality lemma6(const Model3Fingerprinting& r) {
  return {r.projection_risk - std::sqrt(r.mechanism_gap * r.posterior_gap), r.correlation};
}

Inequality lemma36(const Eigen::MatrixXd& sigma, const Eigen::MatrixXd& sigma_hat) {
  const core::EigenPairs top = core::top_eigenpairs(sigma, 2);
  const Eigen::VectorXd v_hat = core::top_eigenpairs(sigma_hat, 1).vectors.col(0);
  const Eigen::VectorXd v = top.vectors.col(0);
  const double gap = top.values[0] - top.values[1];
  return {gap * core::sin2_angle(v_hat, v),
          inner(v_hat * v_hat.transpose() - v * v.transpose(), sigma_hat - sigma)};
}

double score_ratio(const ScoreMoments& s, double eps) {
  if (!(eps > 0) || !(s.rho > 0))
    throw InvalidArgument(
        fmt::format("score ratio: need eps > 0 and rho > 0, got eps = {}, rho = {}", eps, s.rho));
  return s.z / (s.rho * eps);
}

}  // namespace dpb::lower
