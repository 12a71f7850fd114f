// kumar2025 Algorithm 1 (PrivCov) as a registered estimator: its parameters, its diagnostics (spec §8.1
// item 3) and the claim its noise proves.
#include <fmt/format.h>

#include "algorithms/sparse/kumar2025_adapter.hpp"
#include "algorithms/sparse/private_covariance.hpp"
#include "algorithms/sparse/sparse_matrix_ops.hpp"

namespace dpb::alg::kumar2025 {
namespace {

constexpr const char* kId = "kumar2025.priv_cov";

FieldTable<PrivCovParams> fields() {
  using P = PrivCovParams;
  FieldTable<P> t;
  sigma2_field(t, &P::sigma2, "kumar2025 §2.1 line 1");
  beta_field(t, &P::beta, "kumar2025 §2.1 line 1");
  t.real("noise_multiplier", &P::noise_multiplier, 1e-12, 1e12,
         "c in b = (c Delta/eps_row) sqrt(k log(d/delta_row)): 8 = QSZ21 Thm 2.2's constant, 2 = line 5 as "
         "printed; any c runs, and the claim is the eps its noise proves when that exceeds the request",
         "kumar2025 A4")
      .choice("diagonal", &P::fill_diagonal, {{"fill", true}, {"faithful", false}},
              "fill = M_ii = SigmaTil^val_ii if i in S_i (A2); faithful = the printed box (M_ii = 0)", "kumar2025 A2")
      .choice("row_accounting", &P::conservative_rows, {{"paper", false}, {"conservative", true}},
              "paper = one scale b for the selection and the k values (line 5); conservative = selection at "
              "eps_row/2, values composed to eps_row/2",
              "kumar2025 A4")
      .nest(&P::constants, global_fields());
  return t;
}

class PrivCovEstimator final : public Estimator {
 public:
  explicit PrivCovEstimator(PrivCovParams q) : q_(std::move(q)) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    validate_sparse_input(in.X, in.k, in.privacy, true, 1, kId);
    const PrivCovParams q = params(in);
    Estimate e;
    const PrivCovResult r = private_covariance(*in.X, in.k, in.privacy, q, e.ledger, rng);
    e.Sigma = r.M;
    auto& diag = e.diagnostics;
    const auto& c = r.calibration;
    diag.counters = {{"R", c.R},
                     {"delta0", c.delta0},
                     {"delta_row", c.delta_row},
                     {"eps_row", c.eps_row},
                     {"Delta", c.Delta},
                     {"b_select", c.b_select},
                     {"b_value", c.b_value},
                     {"row_epsilon", c.row_epsilon},
                     {"composed_epsilon", c.composed_epsilon},
                     {"composed_delta", c.composed_delta},
                     {"truncated_coordinates", static_cast<double>(r.truncated_coordinates)},
                     {"lambda_priv_obs", r.max_abs_noise},
                     {"selection_ties", static_cast<double>(r.selection_ties)}};
    if (in.oracle && in.oracle->Sigma.rows() == in.X->rows())
      diag.counters["lambda_samp_obs"] = max_abs_difference(r.truncated_second_moment, in.oracle->Sigma);
    diag.notes.push_back(mode_note(q.constants));
    diag.notes.push_back(q.fill_diagonal ? "diagonal=fill (spec A2)" : "diagonal=faithful: M_ii = 0 as printed");
    mark_if_scaled(q.constants, diag);
    e.claim = claim(in);
    return e;
  }

  PrivacyClaim claim(const Input& in) const override {
    const PrivCovParams q = params(in);
    PrivacyClaim c{in.privacy.epsilon, in.privacy.delta, Neighbours::replace, ClaimScope::worst_case, {}};
    c.conditions.push_back("sigma2 is a public input; truncation at R bounds the sensitivity for any data");
    c.conditions.push_back(
        "each row: its top-k set by |noisy value| is (2 k Delta / b_select)-DP by QSZ21 Thm 2.1's coupling, "
        "carried to magnitudes, and its k fresh values (k Delta / b_value)-DP; the accountant composes the d "
        "rows (docs/papers/kumar2025.md, A4)");
    c.conditions.push_back(q.conservative_rows
                               ? "row_accounting=conservative: selection at eps_row/2, the k values composed to "
                                 "eps_row/2 (spec A4)"
                               : "row_accounting=paper: one scale b for the selection and the values (line 5)");
    if (q.constants.scaled) {
      mark_if_scaled(q.constants, c);
      return c;
    }
    const Eigen::MatrixXd& X = claim_data(in, kId);
    const PrivCovCalibration cal = calibrate_private_covariance(X.cols(), X.rows(), in.k, in.privacy, q);
    back_with_ledger(c, plan_private_covariance_ledger(cal, X.rows(), in.k, in.privacy, q),
                     fmt::format("noise_multiplier = {:g}", q.noise_multiplier));
    return c;
  }

 private:
  PrivCovParams params(const Input& in) const {
    PrivCovParams q = q_;
    q.sigma2 = public_or_oracle(q.sigma2, in.oracle, "subgaussian_sigma2", "sigma2", kId);
    return q;
  }

  PrivCovParams q_;
};

}  // namespace

AlgorithmEntry private_covariance_entry() {
  return entry<PrivCovEstimator>(
      {.id = kId,
       .summary = "PrivCov: k-RCS covariance by truncation, per-row noisy top-k selection and fresh Laplace values",
       .source = std::string(kSource) + "Algorithm 1, Theorem 1 (spec §2.1, §3.1)",
       .needs = DataNeed::vectors,
       .oracle_quantities = {"subgaussian_sigma2 (when sigma2 = 0)"},
       .privacy = "(eps, delta)-DP, replace-one neighbours, worst case, computed from the noise: each row's top-k "
                  "set by |.| and its k fresh values are pure ((2k + k) Delta / b)-DP (QSZ21 Thm 2.1's "
                  "coupling), the accountant composes the d rows; above the request the claim is that total." +
                  scaled_warning()},
      fields());
}

}  // namespace dpb::alg::kumar2025
