#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "verify/private_pca.hpp"

using namespace dpb;

namespace {

struct Planted {
  Eigen::MatrixXd X;
  Eigen::MatrixXd U;  // the planted spike directions
};

Planted spiked_data(long n, int d, int r, double lambda, std::uint64_t seed) {
  core::Rng rng(seed, 1);
  const core::ParamMap params{{"d", double(d)}, {"r", double(r)}, {"lambda", lambda}};
  const auto model = core::make_model("spiked_gaussian", params, rng);
  return {model->sample(n, rng), model->info().target};
}

}  // namespace

TEST_CASE("private PCA recovers a planted spike and its ledger adds up to the budget", "[verify][pca]") {
  const auto data = spiked_data(20000, 10, 1, 8.0, 4);
  verify::PcaRequest request;
  request.k = 1;
  request.privacy = alg::Privacy{1.0, 1e-6};
  request.center = true;
  const auto result = verify::private_pca(data.X, request);
  CHECK(result.algorithm == "baseline.dp_gauss_1");
  // n = 2e4, d = 10, lambda = 8: the non-private sin angle is ~sqrt(d / (n lambda)) ~ 0.01 and
  // Analyze-Gauss adds noise of order R^2 sqrt(d log(1/delta)) / (n eps) ~ 0.05 to a gap of 8; a
  // random direction would give ~0.95.
  CHECK(core::sin_angle(result.components, data.U) < 0.5);
  double eps = 0, delta = 0;
  for (const auto& step : result.ledger) {
    eps += step.epsilon;
    delta += step.delta;
  }
  CHECK(eps <= request.privacy.epsilon * (1 + 1e-12));
  CHECK(delta <= request.privacy.delta * (1 + 1e-12));
  CHECK(result.total.epsilon == Approx(eps));
  CHECK(result.ledger.size() == 4);  // norm scale, centering, components, explained variance
  // Variance along the spike is 1 + lambda = 9 out of a total 9 + 9 = 18 (unit noise in 9 others).
  REQUIRE(result.explained.size() == 1);
  CHECK(result.explained(0) / result.total_variance == Approx(0.5).margin(0.1));
}

TEST_CASE("private PCA for k > 1 recovers the planted subspace and is deterministic for a seed", "[verify][pca]") {
  const auto data = spiked_data(20000, 8, 2, 8.0, 5);
  verify::PcaRequest request;
  request.k = 2;
  request.privacy = alg::Privacy{1.0, 1e-6};
  const auto a = verify::private_pca(data.X, request), b = verify::private_pca(data.X, request);
  CHECK(a.components == b.components);
  CHECK(a.ledger.size() == 3);  // no centering step
  CHECK(core::projector_distance(a.components, data.U, core::NormSpec{}) < 1.0);
}

TEST_CASE("private PCA refuses what it cannot run honestly", "[verify][pca]") {
  const auto data = spiked_data(2000, 6, 1, 4.0, 6);
  verify::PcaRequest request;
  request.algorithm = "cai2024.gaussian_mechanism";
  CHECK_THROWS_WITH(verify::private_pca(data.X, request), Catch::Contains("--accept-model-dependent-privacy"));
  request.algorithm = "baseline.nonprivate_pca";
  request.params = {};
  CHECK_THROWS_WITH(verify::private_pca(data.X, request), Catch::Contains("not differentially private"));
  request.algorithm = "";
  request.k = 7;
  CHECK_THROWS_WITH(verify::private_pca(data.X, request), Catch::Contains("1..d = 6"));
  request.k = 1;
  CHECK_THROWS_WITH(verify::private_pca(data.X.leftCols(5), request), Catch::Contains("too few records"));
}
