// example.noisy_second_moment_pca: the whole of a plug-in algorithm in one file. It clips each record
// to norm beta, adds symmetric Gaussian noise to the second-moment matrix (Analyze-Gauss, Dwork et al.
// 2014) and returns its top-k eigenvectors. Registered at start-up, it is then an algorithm like any
// built-in one: `my-dpbounds run`, `check`, `audit`, `list algorithms` all see it.
#include <Eigen/Dense>
#include <cmath>
#include <memory>

#include "algorithms/mechanisms/clipping.hpp"
#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/registry.hpp"
#include "core/linalg.hpp"
#include "core/samplers.hpp"

namespace {

using namespace dpb;

class NoisySecondMomentPca final : public alg::Estimator {
 public:
  explicit NoisySecondMomentPca(double beta) : beta_(beta) {}

  alg::Estimate run(const alg::Input& in, core::Rng& rng) const override {
    const Eigen::MatrixXd& X = *in.X;
    const double n = static_cast<double>(X.cols());
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(X.rows(), X.rows());
    Eigen::VectorXd x(X.rows());
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
      x = X.col(i);
      alg::l2_clip(x, beta_);
      S.selfadjointView<Eigen::Lower>().rankUpdate(x);
    }
    S = S.selfadjointView<Eigen::Lower>();
    // Replacing one record moves S/n by at most sqrt(2) beta^2 / n in Frobenius norm.
    const double sigma = alg::analytic_gaussian_sigma(std::sqrt(2.0) * beta_ * beta_ / n, in.privacy.epsilon,
                                                      in.privacy.delta);
    S /= n;
    S += core::symmetric_gaussian(rng, X.rows(), sigma);
    alg::Estimate estimate;
    estimate.Q = core::top_eigenpairs(S, in.k).vectors;
    estimate.diagnostics.counters["noise_sd"] = sigma;
    estimate.claim = claim(in);
    return estimate;
  }

  alg::PrivacyClaim claim(const alg::Input& in) const override {
    alg::PrivacyClaim c;
    c.epsilon = in.privacy.epsilon;
    c.delta = in.privacy.delta;
    c.conditions = {"records clipped to the public norm beta; analytic Gaussian calibration"};
    return c;
  }

 private:
  double beta_;
};

const bool registered = alg::register_plugin_algorithm({
    .id = "example.noisy_second_moment_pca",
    .summary = "Analyze-Gauss with a public clipping norm (plug-in example)",
    .source = "examples/plugin_algorithm (Dwork, Talwar, Thakurta, Zhang 2014)",
    .params = {alg::real_param("beta", 3.0, 0.0, std::nullopt, "clipping norm (public)", "docs/extending.md")},
    .needs = alg::DataNeed::vectors,
    .oracle_quantities = {},
    .privacy = "(eps, delta)-DP, replace-one neighbours, worst case (clipping)",
    .factory = [](const core::ParamMap& p) -> std::unique_ptr<alg::Estimator> {
      return std::make_unique<NoisySecondMomentPca>(p.get_real("beta", 3.0, "example.noisy_second_moment_pca"));
    },
});

}  // namespace
