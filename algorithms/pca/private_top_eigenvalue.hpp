#pragma once
// liu2022 Algorithm 4 (App. E.2): Private Top Eigenvalue Estimation. From B' vectors g_i it estimates
// lambda_max(Cov g) (= lambda1^2 ||H_u|| when g_i = A_i u) through a stability histogram over
// geometric bins of the top eigenvalues of k disjoint subsets of paired differences.
#include <Eigen/Dense>
#include <optional>
#include <vector>

#include "algorithms/mechanisms/histogram.hpp"
#include "algorithms/pca/liu2022_common.hpp"
#include "core/linalg.hpp"

namespace dpb::alg {

struct TopEigenvalueOptions {
  double C1 = 4;  // k = ceil(C1 log(1/(delta zeta))/eps) + 2 (spec: liu2022 ambiguity 13)
  // Return l/2 instead of the printed l (spec: liu2022 ambiguity 6): the paired differences have twice
  // the covariance, so l/2 is what makes Thm 6.1's interval hold. false = the paper's reading.
  bool halve_difference_scale = true;
  // Line 5's histogram releases bins by the threshold; every_occupied_bin (NOT private) only for
  // algorithms/mutants.
  BinRelease release = BinRelease::thresholded;
};

// The registered algorithm's parameters (liu2022.private_top_eigenvalue).
struct PrivateTopEigenvalueParams {
  TopEigenvalueOptions options;
  double zeta = 0.01;  // failure probability (spec: liu2022 §2.5)
};

struct TopEigenvalueResult {
  std::optional<double> value;   // Lambda_hat; empty = BOTTOM (line 6: every bin released as 0)
  bool zero_bin = false;         // the winning bin was [0, 0] (value 0)
  Eigen::Index subsets = 0;      // k
  Eigen::Index subset_size = 0;  // b
  std::size_t occupied_bins = 0, released_bins = 0;
};

// k of line 2 and the smallest input size B' = 2k that gives b >= 1.
Eigen::Index top_eigenvalue_subsets(double epsilon, double delta, double zeta, double C1);

// Buffers reused across calls (DP-PCA calls Alg. 4 once per step).
struct TopEigenvalueWorkspace {
  Eigen::MatrixXd differences;
  core::LargestEigenvalueWorkspace eigen;
  std::vector<std::int64_t> bins;
};

// Algorithm 4 on the columns of G (d x B'). privacy: (eps, delta) with delta in (0, 1), replace-one.
// Throws dpb::InvalidArgument if B' < 2k (spec: liu2022 ambiguity 13) or on bad privacy parameters.
// The histogram is recorded in `ledger`.
TopEigenvalueResult private_top_eigenvalue(const Eigen::Ref<const Eigen::MatrixXd>& G, const Privacy& privacy,
                                           double zeta, const TopEigenvalueOptions& options, core::Rng& rng,
                                           TopEigenvalueWorkspace& workspace, Ledger& ledger);

// The standalone estimator: g_i = x_i (Input.X), or g_i = A_i u for a data-independent random unit u
// (Input.samples). The estimate's `scalar` (and eigenvalues[0]) is Lambda_hat; BOTTOM leaves it empty.
class PrivateTopEigenvalue final : public Estimator {
 public:
  PrivateTopEigenvalue(TopEigenvalueOptions options, double zeta);
  explicit PrivateTopEigenvalue(const PrivateTopEigenvalueParams& p) : PrivateTopEigenvalue(p.options, p.zeta) {}
  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;

 private:
  TopEigenvalueOptions options_;
  double zeta_;
};

// The vectors g_i a standalone liu2022 estimator works on: the columns of Input.X (returned without a
// copy), or A_i u for a random unit u drawn from rng (data-independent, so privacy is unaffected),
// written into `storage`. Validates the input.
const Eigen::MatrixXd& liu2022_gradient_vectors(const Input& in, core::Rng& rng, const std::string& owner,
                                                Eigen::MatrixXd& storage);

}  // namespace dpb::alg
