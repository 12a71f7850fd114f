#include "algorithms/pca/dugler2026_oja.hpp"

#include "algorithms/pca/dugler2026_common.hpp"

namespace dpb::alg::dugler2026 {

Estimate oja(const Input& in, const OjaParams& p, core::Rng& rng) {
  const std::string owner = "dugler2026.oja";
  check_input(in, owner, /*is_private=*/false);
  const core::SampleMatrices& S = *in.samples;
  const Index d = S.d(), k = in.k, n = S.n();
  const LearningRate eta = make_learning_rate(p.lr, in, n, n, owner);
  Eigen::MatrixXd Q = random_start(d, k, rng);  // line 1
  Eigen::MatrixXd AQ(d, k), Y(d, k);
  for (Index t = 1; t <= n; ++t) {  // line 2 (no allocation inside)
    S.apply(t - 1, Q, AQ);
    Y = Q + eta(t) * AQ;
    orthonormalize_in_place(Y);
    Q.swap(Y);
  }
  Estimate e;
  e.Q = std::move(Q);  // line 3
  e.diagnostics.count("steps", static_cast<double>(n));
  e.claim = oja_claim();
  return e;
}

PrivacyClaim oja_claim() {
  PrivacyClaim c;
  c.scope = ClaimScope::not_private;
  c.conditions = {"Algorithm 7 (Oja, Huang et al. 2021) is the non-private reference"};
  return c;
}

}  // namespace dpb::alg::dugler2026
