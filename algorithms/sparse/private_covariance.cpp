#include "algorithms/sparse/private_covariance.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/sparse/sparse_matrix_ops.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kOwner = "kumar2025.priv_cov";

// The largest per-value eps such that k pure Laplace releases compose to at most `budget` eps, by the
// better of basic composition and Lemma 1 (advanced, with `delta0`). Bisection on the monotone Lemma 1.
double per_value_epsilon(double budget, Eigen::Index k, double delta0) {
  double lo = 0, hi = budget;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (advanced_composition(Budget{mid, 0.0}, k, delta0).epsilon <= budget ? lo : hi) = mid;
  }
  return std::max(budget / static_cast<double>(k), lo);
}

}  // namespace

PrivCovCalibration calibrate_private_covariance(Eigen::Index n, Eigen::Index d, Eigen::Index k,
                                                const Privacy& privacy, const PrivCovParams& params) {
  if (n < 1 || d < 2 || k < 1 || k > d)
    throw InvalidArgument(
        fmt::format("{}: need n >= 1, d >= 2 and 1 <= k <= d; got n={}, d={}, k={}", kOwner, n, d, k));
  validate(privacy);
  if (!(privacy.delta > 0))
    throw InvalidArgument(fmt::format("{}: delta must lie in (0, 1), got {}", kOwner, privacy.delta));
  if (!(params.sigma2 > 0) || !std::isfinite(params.sigma2))
    throw InvalidArgument(fmt::format("{}: sigma2 must be finite and > 0, got {}", kOwner, params.sigma2));
  if (!(params.beta > 0 && params.beta < 1))
    throw InvalidArgument(fmt::format("{}: beta must lie in (0, 1), got {}", kOwner, params.beta));
  if (!(params.noise_multiplier > 0) || !std::isfinite(params.noise_multiplier))
    throw InvalidArgument(
        fmt::format("{}: noise_multiplier must be finite and > 0, got {}", kOwner, params.noise_multiplier));
  const double nn = static_cast<double>(n), dd = static_cast<double>(d), kk = static_cast<double>(k);
  const double eps = privacy.epsilon, delta = privacy.delta;
  PrivCovCalibration c;
  c.R = std::sqrt(params.sigma2) * std::sqrt(2 * std::log(6 * nn * dd / params.beta));  // line 1
  c.delta0 = delta / 2;                                                                 // line 4
  c.delta_row = delta / (2 * dd);
  c.eps_row = eps / (4 * std::sqrt(2 * dd * std::log(1 / c.delta0)));  // spec: kumar2025 A3
  c.Delta = 2 * c.R * c.R / nn;                                        // line 5
  if (!params.conservative_rows) {
    // spec: kumar2025 A4 (paper reading): b = (2 Delta/eps_row) sqrt(k log(d/delta_row)), 2 =
    // noise_multiplier.
    c.b_select = c.b_value =
        params.noise_multiplier * c.Delta / c.eps_row * std::sqrt(kk * std::log(dd / c.delta_row));
  } else {
    // spec: kumar2025 A4 (conservative): half the row budget for the selection, half for the k values.
    c.b_select = params.noise_multiplier * c.Delta / (c.eps_row / 2) *
                 std::sqrt(kk * std::log(dd / (c.delta_row / 2)));
    c.b_value = c.Delta / per_value_epsilon(c.eps_row / 2, k, c.delta_row / 2);
  }
  c.b_select = params.constants.noise(c.b_select);
  c.b_value = params.constants.noise(c.b_value);
  // Lemma 1 over the d rows with delta0: (eps*, d delta_row + delta0) = (eps*, delta).
  const Budget total = advanced_composition(Budget{c.eps_row, c.delta_row}, d, c.delta0);
  c.composed_epsilon = total.epsilon;
  c.composed_delta = total.delta;
  if (!params.constants.scaled && total.epsilon > eps * (1 + 1e-12))
    throw InvalidArgument(
        fmt::format("{}: Lemma 1 composes the d = {} rows to eps* = {:g} > eps = {:g}; the paper's "
                    "calibration needs eps <= 1 "
                    "(its footnote 5: run at eps = 1 instead)",
                    kOwner, d, total.epsilon, eps));
  return c;
}

PrivCovResult private_covariance(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                 const PrivCovParams& params, core::Rng& rng) {
  validate_sparse_input(&X, k, privacy, true, 1, kOwner);
  const Eigen::Index d = X.rows(), n = X.cols();
  PrivCovResult out;
  out.calibration = calibrate_private_covariance(n, d, k, privacy, params);
  const PrivCovCalibration& c = out.calibration;
  // Lines 1-3: y_t = Trunc_R(x_t); SigmaHat = (1/n) sum_t y_t y_t^T by a rank update.
  Eigen::MatrixXd Y = X;
  out.truncated_coordinates = truncate_coordinates(Y, c.R);
  out.truncated_second_moment = core::second_moment(Y);
  const Eigen::MatrixXd& S = out.truncated_second_moment;
  // Lines 6-10, row by row. Only SigmaTil^val_ij with j in S_i is ever used (spec §2.1 notes), so the
  // fresh value noise is drawn for those k entries only; the unused d - k draws would never be released.
  Eigen::VectorXd noisy_row(d);
  Eigen::MatrixXd released = Eigen::MatrixXd::Zero(d, d);              // SigmaTil^val on S_i
  Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> selected(d, d);  // selected(i, j): j in S_i
  selected.setConstant(false);
  out.supports.resize(static_cast<std::size_t>(d));
  for (Eigen::Index i = 0; i < d; ++i) {
    for (Eigen::Index j = 0; j < d; ++j) {  // line 7: SigmaTil^sel_{i,:} = SigmaHat_{i,:} + Lap(b)^d
      const double z = core::laplace(rng, c.b_select);
      out.max_abs_noise = std::max(out.max_abs_noise, std::abs(z));
      noisy_row[j] = S(i, j) + z;
    }
    bool tie = false;
    auto& support = out.supports[static_cast<std::size_t>(i)];
    support = top_k_support(noisy_row, k, &tie);  // line 8: S_i = supp(top_k(SigmaTil^sel_{i,:}))
    out.selection_ties += tie ? 1 : 0;
    for (Eigen::Index j : support) {  // line 9: fresh noise for the released values
      const double z = core::laplace(rng, c.b_value);
      out.max_abs_noise = std::max(out.max_abs_noise, std::abs(z));
      released(i, j) = S(i, j) + z;
      selected(i, j) = true;
    }
  }
  // Lines 11-14: keep (i, j) only when both rows selected each other; average the two released values.
  out.M = Eigen::MatrixXd::Zero(d, d);
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = 0; i < j; ++i)
      if (selected(i, j) && selected(j, i))
        out.M(i, j) = out.M(j, i) = 0.5 * (released(i, j) + released(j, i));
  // Line 15 (spec: kumar2025 A2): the diagonal, which the printed algorithm leaves at 0.
  if (params.fill_diagonal)
    for (Eigen::Index i = 0; i < d; ++i)
      if (selected(i, i)) out.M(i, i) = released(i, i);
  return out;
}

}  // namespace dpb::alg
