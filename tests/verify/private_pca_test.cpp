#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "algorithms/mechanisms/accountant.hpp"
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

TEST_CASE("private PCA recovers a planted spike and its ledger's total is the headline", "[verify][pca]") {
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
  // The headline is the accountant's total of every mechanism run, within the budget asked for.
  const alg::Spend spend = alg::account(result.ledger, request.privacy.delta, alg::Neighbours::replace);
  CHECK(result.total.epsilon == spend.epsilon);
  CHECK(spend.epsilon <= request.privacy.epsilon * (1 + 1e-9));
  CHECK(result.total.delta == request.privacy.delta);
  // Norm scale, centering, the Analyze-Gauss release, explained variance.
  CHECK(result.ledger.entries().size() == 4);
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
  CHECK(a.ledger.entries().size() == 3);  // no centering step
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
  // Issue 17: a mutant ran and printed "(1, 1e-06)-DP ... worst case".
  request.algorithm = "mutant.dp_gauss_halved_noise";
  CHECK_THROWS_WITH(verify::private_pca(data.X, request), Catch::Contains("mutant"));
}

TEST_CASE("private PCA prints no count read off the data", "[verify][pca][privacy]") {
  // Issue 17: "N records were clipped to radius R" went to stdout, summary.txt and pca.json, and two files
  // differing in one record gave 231 vs 232. Half the records here lie far outside any clip radius.
  auto data = spiked_data(4000, 5, 1, 4.0, 9);
  data.X.rightCols(2000) *= 50;
  verify::PcaRequest request;
  request.privacy = alg::Privacy{1.0, 1e-6};
  const auto result = verify::private_pca(data.X, request);
  const std::string text = verify::to_text(result), json = verify::to_json(result).dump();
  CHECK_THAT(text, !Catch::Contains("records were clipped"));
  CHECK_THAT(json, !Catch::Contains("records were clipped"));
  CHECK(result.notes.empty());
}
