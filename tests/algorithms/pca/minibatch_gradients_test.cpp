#include "algorithms/pca/minibatch_gradients.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/sample_matrices.hpp"
#include "core/samplers.hpp"

using namespace dpb::alg;

namespace {

Estimate run_on(const Eigen::MatrixXd& X, Eigen::Index batch, dpb::core::Rng rng) {
  const dpb::core::VectorSamples samples(X);
  Input in;
  in.samples = &samples;
  return MinibatchGradients({batch}).run(in, rng);
}

}  // namespace

TEST_CASE("liu2022.minibatch_gradients: mean norm and range of the first B gradients x x^T w", "[liu2022]") {
  dpb::core::Rng data(3, 1);
  Eigen::MatrixXd X = dpb::core::standard_normal_matrix(data, 2, 500);
  const dpb::core::Rng noise(7, 1);
  const auto e = run_on(X, 400, noise);
  // The same w from the same stream, and the definitions computed directly on the first 400 columns.
  dpb::core::Rng replay = noise;
  const Eigen::VectorXd w = dpb::core::haar_frame(replay, 2, 1).col(0);
  Eigen::MatrixXd g(2, 400);
  for (int i = 0; i < 400; ++i) g.col(i) = X.col(i) * X.col(i).dot(w);
  const Eigen::Vector2d mean = g.rowwise().mean();
  double range = 0;
  for (int i = 0; i < 400; ++i) range = std::max(range, (g.col(i) - mean).norm());
  const auto& c = e.diagnostics.counters;
  CHECK(c.at("mean_gradient_norm") == Approx(mean.norm()).epsilon(1e-12));
  CHECK(c.at("gradient_range") == Approx(range).epsilon(1e-12));
  CHECK(c.at("range_over_mean") == Approx(range / mean.norm()).epsilon(1e-12));
  CHECK(!e.Q);
  CHECK(e.claim.scope == ClaimScope::not_private);
  // Columns past the batch are never read.
  X.rightCols(100).setConstant(1e6);
  CHECK(run_on(X, 400, noise).diagnostics.counters.at("gradient_range") == Approx(range).epsilon(1e-12));
}

TEST_CASE("liu2022.minibatch_gradients: Example 4.1 at sigma = 0 has gradients of zero range", "[liu2022]") {
  // x = +-v: x x^T = v v^T for either sign, so every gradient equals the mean (Figure 1 right, sigma -> 0).
  Eigen::MatrixXd X(2, 400);
  for (int i = 0; i < 400; ++i) X.col(i) = (i % 2 ? 1.0 : -1.0) * Eigen::Vector2d(0.6, 0.8);
  const auto c = run_on(X, 400, dpb::core::Rng(1, 1)).diagnostics.counters;
  CHECK(c.at("gradient_range") < 1e-12);
  CHECK(c.at("mean_gradient_norm") > 0);
}

TEST_CASE("liu2022.minibatch_gradients: a batch larger than n is refused", "[liu2022]") {
  dpb::core::Rng data(3, 1);
  CHECK_THROWS_AS(run_on(dpb::core::standard_normal_matrix(data, 2, 100), 400, dpb::core::Rng(1, 1)),
                  dpb::InvalidArgument);
  CHECK_THROWS_AS(MinibatchGradients({1}), dpb::InvalidArgument);
}
