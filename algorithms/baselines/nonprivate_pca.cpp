#include "algorithms/baselines/nonprivate_pca.hpp"

#include <limits>

#include "algorithms/baselines/analyze_gauss.hpp"
#include "algorithms/baselines/psd_samples.hpp"

namespace dpb::alg::baselines {
namespace {

constexpr const char* kId = "baseline.nonprivate_pca";
constexpr const char* kNotPrivate =
    "non-private reference: outputs exact top-k eigenvectors of the data's second moment";

class NonprivatePca final : public Estimator {
 public:
  Estimate run(const Input& in, core::Rng& /*rng*/) const override {
    const PsdSamples data = PsdSamples::from(in, kId);
    require_rank(in.k, data.d(), kId, "k eigenvectors of a d x d matrix");
    // (1/n) sum_i A_i by one rank update (core::second_moment inside weighted_sum).
    const Eigen::MatrixXd S = data.weighted_sum(Eigen::VectorXd::Constant(data.n(), 1.0 / double(data.n())));
    const core::EigenPairs top = core::top_eigenpairs(S, in.k);
    Estimate out;
    out.Q = top.vectors;
    out.eigenvalues = top.values;
    out.Sigma = S;
    // Released as computed: on unbounded records no sensitivity bounds it (the ledger charges infinity).
    out.ledger.record(exact_entry("exact top-k eigenpairs and second moment (non-private reference)",
                                  std::numeric_limits<double>::infinity(), in.privacy.neighbours));
    out.claim = claim(in);
    return out;
  }
  // No budget is used: eps = delta = 0 are recorded with ClaimScope::not_private, which every
  // description prints as "NOT differentially private".
  PrivacyClaim claim(const Input& in) const override {
    return not_private_claim({0.0, 0.0, in.privacy.neighbours}, {kNotPrivate});
  }
};

}  // namespace

AlgorithmEntry nonprivate_pca_entry() {
  AlgorithmEntry e;
  e.id = kId;
  e.summary = "Non-private PCA: top-k eigenvectors of the sample second moment (1/n) sum_i A_i; NOT differentially private";
  e.source = "non-private PCA reference of dugler2026 §7 and cai2024 §6 (no algorithm box)";
  e.needs = DataNeed::vectors;
  e.privacy = "NOT differentially private (no guarantee of any kind; eps = infinity); reference only";
  e.factory = [](const core::ParamMap&) { return std::make_unique<NonprivatePca>(); };
  return e;
}

}  // namespace dpb::alg::baselines
