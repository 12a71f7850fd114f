#include "algorithms/sparse/private_covariance.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/mechanisms/laplace.hpp"
#include "algorithms/mechanisms/oneshot_top_k.hpp"
#include "algorithms/sparse/sparse_matrix_ops.hpp"
#include "core/errors.hpp"
#include "core/linalg.hpp"

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
    // spec: kumar2025 A4 (paper reading): b = (c Delta/eps_row) sqrt(k log(d/delta_row)), c =
    // noise_multiplier.
    c.b_select = c.b_value =
        params.noise_multiplier * c.Delta / c.eps_row * std::sqrt(kk * std::log(dd / c.delta_row));
  } else {
    // spec: kumar2025 A4 (conservative): half the row budget for the selection, half for the k values.
    c.b_select = params.noise_multiplier * c.Delta / (c.eps_row / 2) *
                 std::sqrt(kk * std::log(dd / (c.delta_row / 2)));
    c.value_epsilon = per_value_epsilon(c.eps_row / 2, k, c.delta_row / 2);
    c.b_value = c.Delta / c.value_epsilon;
  }
  c.b_select = params.constants.noise(c.b_select);
  c.b_value = params.constants.noise(c.b_value);
  // What the noise proves (oneshot_top_k.hpp): the set by the coupling, the k values as Laplace releases.
  c.row_epsilon =
      oneshot_top_k_coupling_sensitivity(d, k, c.Delta, false) / c.b_select + kk * c.Delta / c.b_value;
  // The total is the accountant's over the ledger a run records, not Lemma 1 at (eps_row, delta_row): the
  // paper's rows are not (eps_row, delta_row)-DP for every c (line 5's c = 2 relies on QSZ21 Thm 2.2, which
  // covers neither the values nor a ranking by magnitude).
  const Spend total =
      account(plan_private_covariance_ledger(c, d, k, privacy, params), delta, privacy.neighbours);
  c.composed_epsilon = total.epsilon;
  c.composed_delta = total.delta;
  return c;
}

PrivCovEntries private_covariance_entries(const PrivCovCalibration& c, Eigen::Index d, Eigen::Index k,
                                          const Privacy& privacy, const PrivCovParams& params) {
  PrivCovEntries out;
  if (!params.conservative_rows) {
    out.row =
        oneshot_top_k_entry("PrivCov row: top-k by |noisy value| and its k fresh values (lines 7-9)", d, k,
                            c.Delta, c.b_select, true, Privacy{c.eps_row, c.delta_row, privacy.neighbours});
    return out;
  }
  out.row = oneshot_top_k_entry("PrivCov row: top-k selection by |noisy value| (one-shot, lines 7-8)", d, k,
                                c.Delta, c.b_select, false,
                                Privacy{c.eps_row / 2, c.delta_row / 2, privacy.neighbours});
  out.value = laplace_entry("PrivCov row: a fresh Laplace value on the selection (line 9)", c.Delta,
                            c.b_value, Privacy{c.value_epsilon, 0, privacy.neighbours});
  return out;
}

Ledger plan_private_covariance_ledger(const PrivCovCalibration& c, Eigen::Index d, Eigen::Index k,
                                      const Privacy& privacy, const PrivCovParams& params) {
  PrivCovEntries entries = private_covariance_entries(c, d, k, privacy, params);
  Ledger plan;
  entries.row.uses = d;
  plan.record(entries.row);
  if (entries.value) {
    entries.value->uses = d * k;
    plan.record(*entries.value);
  }
  return plan;
}

PrivCovResult private_covariance(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                 const PrivCovParams& params, Ledger& ledger, core::Rng& rng) {
  validate_sparse_input(&X, k, privacy, true, 1, kOwner);
  const Eigen::Index d = X.rows(), n = X.cols();
  PrivCovResult out;
  out.calibration = calibrate_private_covariance(n, d, k, privacy, params);
  const PrivCovCalibration& c = out.calibration;
  const PrivCovEntries entries = private_covariance_entries(c, d, k, privacy, params);
  // Lines 1-3: y_t = Trunc_R(x_t); SigmaHat = (1/n) sum_t y_t y_t^T by a rank update.
  Eigen::MatrixXd Y = X;
  out.truncated_coordinates = truncate_coordinates(Y, c.R);
  out.truncated_second_moment = core::second_moment(Y);
  const Eigen::MatrixXd& S = out.truncated_second_moment;
  // Lines 6-10, row by row (S is exactly symmetric: row i is column i). Conservative rows draw their values
  // through the Laplace mechanism; its entries go to a ledger of their own so each kind stays one entry.
  const bool values_in_row = !entries.value;
  Ledger value_ledger;
  Eigen::MatrixXd released = Eigen::MatrixXd::Zero(d, d);              // SigmaTil^val on S_i
  Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> selected(d, d);  // selected(i, j): j in S_i
  selected.setConstant(false);
  out.supports.resize(static_cast<std::size_t>(d));
  for (Eigen::Index i = 0; i < d; ++i) {
    OneshotTopK row = oneshot_top_k_mechanism(S.col(i), k, values_in_row, entries.row, ledger, rng);
    out.max_abs_noise = std::max(out.max_abs_noise, row.max_abs_noise);
    out.selection_ties += row.tie ? 1 : 0;
    for (std::size_t a = 0; a < row.support.size(); ++a) {
      const Eigen::Index j = row.support[a];
      if (values_in_row) {
        released(i, j) = row.values[static_cast<Eigen::Index>(a)];
      } else {
        released(i, j) = laplace_mechanism(S(i, j), *entries.value, value_ledger, rng);
        out.max_abs_noise = std::max(out.max_abs_noise, std::abs(released(i, j) - S(i, j)));
      }
      selected(i, j) = true;
    }
    out.supports[static_cast<std::size_t>(i)] = std::move(row.support);
  }
  ledger.append(value_ledger);
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
