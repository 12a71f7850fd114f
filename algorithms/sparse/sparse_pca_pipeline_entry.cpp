// kumar2025 Theorem 3's pipeline (PrivNorm, then PrivPCA on the other half) as a registered estimator: its
// parameters, its diagnostics and the claim its noise proves.
#include "algorithms/sparse/kumar2025_adapter.hpp"
#include "algorithms/sparse/sparse_pca_pipeline.hpp"

namespace dpb::alg::kumar2025 {
namespace {

constexpr const char* kId = "kumar2025.sparse_pca_pipeline";

FieldTable<SparsePcaPipelineParams> fields() {
  using P = SparsePcaPipelineParams;
  FieldTable<P> t;
  t.inherit(block_fields())
      .inherit(block_public_fields("kumar2025 §2.4"))
      .choice("delta_p", &P::rigorous_pca_sensitivity, {{"rigorous", true}, {"paper", false}},
              "PrivPCA's Delta_P mode", "kumar2025 A5")
      .choice("norm_sensitivity", &P::rigorous_norm_sensitivity, {{"rigorous", true}, {"paper", false}},
              "PrivNorm's sensitivity mode", "kumar2025 A10")
      .inherit(block_global_fields());
  return t;
}

class PipelineEstimator final : public Estimator {
 public:
  explicit PipelineEstimator(SparsePcaPipelineParams q) : q_(std::move(q)) {}

  Estimate run(const Input& in, core::Rng& rng) const override {
    validate_sparse_input(in.X, in.k, in.privacy, true, 2, kId);
    const SparsePcaPipelineParams q = params(in);
    Estimate e;
    const SparsePcaPipelineResult r = sparse_pca_pipeline(*in.X, in.k, in.privacy, q, e.ledger, rng);
    if (r.v_priv) e.Q = *r.v_priv;
    auto& diag = e.diagnostics;
    report_blocks(r.norm.blocks, "norm.", diag);
    if (r.norm.lambda_hat) diag.counters["norm.lambda_hat"] = *r.norm.lambda_hat;
    if (r.pca) {
      report_blocks(r.pca->blocks, "pca.", diag);
      diag.counters["pca.Delta_P"] = r.pca->Delta_P;
      diag.counters["pca.sigma_priv"] = r.pca->sigma_priv;
    }
    diag.counters["bottom"] = r.v_priv ? 0 : 1;
    if (!r.v_priv) diag.notes.push_back("BOTTOM: " + r.bottom);
    diag.notes.push_back(mode_note(q.block.constants));
    mark_if_scaled(q.block.constants, diag);
    e.claim = claim(in);
    return e;
  }

  PrivacyClaim claim(const Input& in) const override {
    const SparsePcaPipelineParams q = params(in);
    PrivacyClaim c{in.privacy.epsilon, in.privacy.delta, Neighbours::replace, ClaimScope::worst_case, {}};
    c.conditions.push_back(
        "PrivNorm and PrivPCA at (eps/2, delta/2) each on disjoint halves: basic composition as the paper has "
        "it, parallel in the ledger (A11)");
    c.conditions.push_back("PrivPCA returns BOTTOM when Eq. 28 fails for the released lambda_hat; m > 30");
    if (!q.rigorous_pca_sensitivity || !q.rigorous_norm_sensitivity)
      c.conditions.push_back("a paper-mode sensitivity is in use (spec A5 / A10): the ledger charges the rigorous one");
    if (q.block.constants.scaled) {
      mark_if_scaled(q.block.constants, c);
      return c;
    }
    const Eigen::MatrixXd& X = claim_data(in, kId);
    back_with_ledger(c, plan_sparse_pca_pipeline_ledger(X.cols(), X.rows(), in.k, in.privacy, q),
                     q.rigorous_pca_sensitivity && q.rigorous_norm_sensitivity ? "both stages"
                                                                               : "a paper-mode sensitivity");
    return c;
  }

 private:
  SparsePcaPipelineParams params(const Input& in) const {
    SparsePcaPipelineParams q = q_;
    resolve_block_public(q, in, kId);
    return q;
  }

  SparsePcaPipelineParams q_;
};

}  // namespace

AlgorithmEntry sparse_pca_pipeline_entry() {
  return entry<PipelineEstimator>(
      {.id = kId,
       .summary = "Sparse PCA pipeline: Theorem 3's, PrivNorm on the first half for lambda_hat, PrivPCA on the "
                  "second half",
       .source = std::string(kSource) + "proof of Theorem 3 (spec §2.4, A11)",
       .needs = DataNeed::vectors,
       .oracle_quantities = {"gamma (when gamma = 0)", "subgaussian_sigma2 (when sigma2 = 0)"},
       .privacy = "(eps, delta)-DP, replace-one neighbours, worst case: two (eps/2, delta/2) stages on disjoint "
                  "halves (basic composition; parallel in the ledger); BOTTOM when either stage refuses; a "
                  "paper-mode sensitivity claims what its noise gives when that exceeds the request." +
                  scaled_warning()},
      fields());
}

}  // namespace dpb::alg::kumar2025
