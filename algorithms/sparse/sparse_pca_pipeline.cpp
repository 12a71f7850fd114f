#include "algorithms/sparse/sparse_pca_pipeline.hpp"

#include <fmt/format.h>
#include <cstdint>

#include "core/errors.hpp"

namespace dpb::alg {
namespace {

constexpr const char* kOwner = "kumar2025.sparse_pca_pipeline";
constexpr const char* kNormStage = "PrivNorm (first half): ";
constexpr const char* kPcaStage = "PrivPCA (second half): ";

// A stage's entries, named by the stage, in the ledger part of its half: the halves are disjoint, so the
// stages compose in parallel (a record of D_1 reaches PrivPCA only through the released lambda_hat), which is
// tighter than the paper's basic composition (A11).
void record_stage(const Ledger& stage, const char* name, std::int64_t part, Ledger& ledger) {
  for (LedgerEntry e : stage.entries()) {
    e.step = name + e.step;
    e.part = part;
    ledger.record(e);
  }
}

// spec: kumar2025 §2.4 / A11: every budget halved, one m for both calls (halves of floor(n/2) samples).
struct Stages {
  Privacy each;
  PrivNormParams norm;
  PrivPcaParams pca;
};

Stages stages(Eigen::Index half, const Privacy& privacy, const SparsePcaPipelineParams& params) {
  Stages s;
  s.each = Privacy{privacy.epsilon / 2, privacy.delta / 2, privacy.neighbours};
  const double beta = params.beta / 2;
  const long long m = block_count(params.m, half, s.each, beta, params.block.constants, kOwner);
  static_cast<BlockAlgorithmParams&>(s.norm) = params;  // the shared inputs and constants
  s.norm.m = m;
  s.norm.beta = beta;
  s.norm.rigorous_sensitivity = params.rigorous_norm_sensitivity;
  static_cast<BlockAlgorithmParams&>(s.pca) = params;
  s.pca.m = m;
  s.pca.beta = beta;
  s.pca.rigorous_sensitivity = params.rigorous_pca_sensitivity;
  s.pca.precondition_bottom = true;
  return s;
}

}  // namespace

SparsePcaPipelineResult sparse_pca_pipeline(const Eigen::MatrixXd& X, Eigen::Index k, const Privacy& privacy,
                                            const SparsePcaPipelineParams& params, Ledger& ledger,
                                            core::Rng& rng) {
  validate_sparse_input(&X, k, privacy, true, 2, kOwner);
  const Eigen::Index half = X.cols() / 2;  // an odd last sample is dropped
  Stages s = stages(half, privacy, params);
  SparsePcaPipelineResult out;
  Ledger norm_ledger;
  out.norm =
      private_norm(X.leftCols(half), k, s.each, s.norm, norm_ledger, rng);  // lambda_hat <- PrivNorm(D_1)
  record_stage(norm_ledger, kNormStage, 0, ledger);
  if (!out.norm.lambda_hat) {
    out.bottom = "PrivNorm (first half) returned BOTTOM: " + out.norm.blocks.bottom;
    return out;
  }
  if (!(*out.norm.lambda_hat > 0)) {
    out.bottom =
        fmt::format("PrivNorm (first half) released lambda_hat = {:g} <= 0; PrivPCA needs lambda_hat > 0",
                    *out.norm.lambda_hat);
    return out;
  }
  s.pca.lambda_hat = *out.norm.lambda_hat;
  Ledger pca_ledger;
  out.pca = private_sparse_pca(X.middleCols(half, half), k, s.each, s.pca, pca_ledger,
                               rng);  // v_priv <- PrivPCA(D_2)
  record_stage(pca_ledger, kPcaStage, 1, ledger);
  out.v_priv = out.pca->v_priv;
  if (!out.v_priv) out.bottom = "PrivPCA (second half) returned BOTTOM: " + out.pca->bottom;
  return out;
}

Ledger plan_sparse_pca_pipeline_ledger(Eigen::Index n, Eigen::Index d, Eigen::Index k, const Privacy& privacy,
                                       const SparsePcaPipelineParams& params) {
  const Eigen::Index half = n / 2;
  Stages s = stages(half, privacy, params);
  // PrivPCA's lambda_hat is PrivNorm's release, unknown here; its noise is proportional to Delta_P, itself
  // proportional to 1/lambda_hat, so noise/sensitivity (all the accountant reads) is the same at any value.
  s.pca.lambda_hat = 1;
  Ledger plan;
  record_stage(plan_private_norm_ledger(half, d, k, s.each, s.norm), kNormStage, 0, plan);
  record_stage(plan_private_sparse_pca_ledger(half, d, k, s.each, s.pca), kPcaStage, 1, plan);
  return plan;
}

}  // namespace dpb::alg
