// kumar2025 Algorithm 2 (PrivPCA) as a registered estimator: its parameters, its diagnostics (spec §8.1
// item 4) and the claim its noise proves.
#include "algorithms/sparse/kumar2025_adapter.hpp"
#include "algorithms/sparse/private_sparse_pca.hpp"

namespace dpb::alg::kumar2025 {
namespace {

constexpr const char* kId = "kumar2025.priv_pca";

FieldTable<PrivPcaParams> fields() {
  using P = PrivPcaParams;
  FieldTable<P> t;
  t.inherit(block_fields())
      .real("lambda_hat", &P::lambda_hat, 0.0, std::nullopt,
            "public operator-norm estimate (PrivNorm's output); 0 = the oracle's lambda1", "kumar2025 §2.2")
      .inherit(block_public_fields("kumar2025 A7"))
      .choice("delta_p", &P::rigorous_sensitivity, {{"rigorous", true}, {"paper", false}},
              "rigorous = 272 sqrt2 k tau/(gamma (1-gamma/2) lambda_hat); paper = 68 sqrt2 k tau/(gamma lambda_hat)",
              "kumar2025 A5")
      .choice("on_precondition_failure", &P::precondition_bottom, {{"refuse", false}, {"bottom", true}},
              "Eq. 28 fails: refuse (InvalidArgument) or return BOTTOM without reading the data", "kumar2025 A9")
      .inherit(block_global_fields());
  return t;
}

class PrivPcaEstimator final : public Estimator {
 public:
  explicit PrivPcaEstimator(PrivPcaParams q) : q_(std::move(q)) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    validate_sparse_input(in.X, in.k, in.privacy, true, 1, kId);
    const PrivPcaParams q = params(in);
    Estimate e;
    const PrivPcaResult r = private_sparse_pca(*in.X, in.k, in.privacy, q, e.ledger, rng);
    if (r.v_priv) e.Q = *r.v_priv;
    auto& diag = e.diagnostics;
    report_blocks(r.blocks, "", diag);
    diag.counters["bottom"] = r.v_priv ? 0 : 1;
    diag.counters["precondition_lhs_34ktau"] = r.precondition_lhs;
    diag.counters["precondition_rhs_gamma_lambda_over_16"] = r.precondition_rhs;
    diag.counters["Delta_P"] = r.Delta_P;
    diag.counters["proven_Delta_P"] = r.proven_Delta_P;
    diag.counters["sigma_priv"] = r.sigma_priv;
    if (r.v_priv) {
      diag.counters["W_max"] = r.W_max;
      diag.counters["top_entries_tie"] = r.top_entries_tie ? 1 : 0;
    }
    if (!r.v_priv) diag.notes.push_back("BOTTOM: " + r.bottom);
    diag.notes.push_back(mode_note(q.block.constants));
    diag.notes.push_back(q.rigorous_sensitivity ? "delta_p=rigorous (spec A5)" : "delta_p=paper (spec A5)");
    if (!r.precondition_holds) diag.notes.push_back("Eq. 28 precondition does not hold");
    mark_if_scaled(q.block.constants, diag);
    e.claim = claim(in);
    return e;
  }

  PrivacyClaim claim(const Input& in) const override {
    const PrivPcaParams q = params(in);
    PrivacyClaim c{in.privacy.epsilon, in.privacy.delta, Neighbours::replace, ClaimScope::worst_case, {}};
    c.conditions.push_back("Eq. 28 precondition 34 k tau <= gamma lambda_hat / 16 checked before running; m > 30");
    c.conditions.push_back("lambda_hat, gamma, sigma2, tau are public inputs");
    if (!q.rigorous_sensitivity)
      c.conditions.push_back(
          "delta_p=paper: the noise is calibrated to the paper's Delta_P, smaller than its own lemmas support "
          "(spec A5); the ledger charges the rigorous Delta_P");
    if (q.block.constants.scaled) {
      mark_if_scaled(q.block.constants, c);
      return c;
    }
    const Eigen::MatrixXd& X = claim_data(in, kId);
    back_with_ledger(c, plan_private_sparse_pca_ledger(X.cols(), X.rows(), in.k, in.privacy, q),
                     q.rigorous_sensitivity ? "the tests and the Gaussian release" : "delta_p=paper");
    return c;
  }

 private:
  PrivPcaParams params(const Input& in) const {
    PrivPcaParams q = q_;
    resolve_block_public(q, in, kId);
    q.lambda_hat = public_or_oracle(q.lambda_hat, in.oracle, "lambda1", "lambda_hat", kId);
    return q;
  }

  PrivPcaParams q_;
};

}  // namespace

AlgorithmEntry private_sparse_pca_entry() {
  return entry<PrivPcaEstimator>(
      {.id = kId,
       .summary = "PrivPCA: sparse PCA by propose-test-release over m blocks, Gaussian noise on the projector, "
                  "top_{k^2}",
       .source = std::string(kSource) + "Algorithm 2, Lemmas 8-12, Corollary 2 (spec §2.2, §3.2)",
       .needs = DataNeed::vectors,
       .oracle_quantities = {"lambda1 (when lambda_hat = 0)", "gamma (when gamma = 0)",
                             "subgaussian_sigma2 (when sigma2 = 0)"},
       .privacy = "(eps, delta)-DP, replace-one neighbours, worst case, given the public Eq. 28 precondition "
                  "(checked) and m > 30: two BoundedLap tests and the Gaussian release at (eps/3, delta/3) "
                  "each; may return BOTTOM. delta_p=paper claims the eps its noise gives for the rigorous "
                  "Delta_P." +
                  scaled_warning()},
      fields());
}

}  // namespace dpb::alg::kumar2025
