#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "core/samplers.hpp"
#include "algorithms/mechanisms/accountant.hpp"
#include "app/pca/pca_output.hpp"
#include "app/pca/private_pca.hpp"
#include "tests/support/text.hpp"

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

// Issue 22's practitioner file: n records in d = 20 columns with two planted components (standard
// deviations 3 along v1 = (e1+..+e5)/sqrt 5 and 2 along v2 = (e6+..+e10)/sqrt 5) over unit noise, every
// column shifted by `shift`.
Planted two_components(long n, double shift, std::uint64_t seed = 21) {
  constexpr int d = 20;
  core::Rng rng(seed, 2);
  Eigen::MatrixXd V = Eigen::MatrixXd::Zero(d, 2);
  V.block(0, 0, 5, 1).setConstant(1 / std::sqrt(5.0));
  V.block(5, 1, 5, 1).setConstant(1 / std::sqrt(5.0));
  const Eigen::MatrixXd scores = core::standard_normal_matrix(rng, 2, n);
  Eigen::MatrixXd X = V * (Eigen::Vector2d(3, 2).asDiagonal() * scores) + core::standard_normal_matrix(rng, d, n);
  X.array() += shift;
  return {X, V.col(0)};
}

app::PcaRequest centered_request() {
  app::PcaRequest request;
  request.k = 2;
  request.privacy = alg::Privacy{1.0, 1e-6};
  request.preprocessing.center = true;
  return request;
}

bool has_step(const alg::Ledger& ledger, std::string_view prefix) {
  const auto& entries = ledger.entries();
  return std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.step.rfind(prefix, 0) == 0; });
}

}  // namespace

TEST_CASE("centering recovers the first component of data far from the origin as well as of centred data",
          "[verify][pca]") {
  // Issue 22: with every column shifted by 10 the radius was estimated on the raw records and doubled
  // after centering: sin 0.985 at n = 5000 (0.894 at a shift of 2). The acceptance: sin <= 0.2 at
  // n = 5000, eps = 1, within 0.05 of the unshifted data. At this gap (9 against 4) Analyze-Gauss lands
  // near sin 0.05 on centred data; a random direction in d = 20 gives about 0.97.
  const auto request = centered_request();
  const auto unshifted = two_components(5000, 0), shifted = two_components(5000, 10);
  const double sin_unshifted =
      core::sin_angle(app::private_pca(unshifted.X, request).components.leftCols(1), unshifted.U);
  const auto result = app::private_pca(shifted.X, request);
  const double sin_shifted = core::sin_angle(result.components.leftCols(1), shifted.U);
  CHECK(sin_unshifted <= 0.2);
  CHECK(sin_shifted <= 0.2);
  CHECK(std::abs(sin_shifted - sin_unshifted) <= 0.05);
  // The private center is the shift (its noise has sd about 0.5 per coordinate at eps 0.05 a round), and
  // the explained variance is that of centred data: about 10 of 1 + 9 + 4 + 19 = 33, not 0.
  CHECK((result.center - Eigen::VectorXd::Constant(20, 10)).cwiseAbs().maxCoeff() < 2);
  CHECK(result.explained(0) / result.total_variance == Approx(10.0 / 33).margin(0.08));
}

TEST_CASE("a public bound makes the norm scale free, and then small budgets run", "[verify][pca]") {
  // Issue 22: a user who knows the data's range still paid for a private norm scale, and eps = 0.1 at
  // n = 5000 was refused for it.
  const auto data = two_components(5000, 0);
  auto request = centered_request();
  request.privacy.epsilon = 0.1;
  CHECK_THROWS_WITH(app::private_pca(data.X, request), Catch::Contains("--norm-bound or --bounds"));
  request.preprocessing.bounds.norm_bound = 15.0;
  const auto by_norm = app::private_pca(data.X, request);
  CHECK_FALSE(has_step(by_norm.ledger, "norm scale"));
  CHECK(by_norm.radius_is_public);
  // Every record lies within 15 of 0, so after centering within 15 + ||c||.
  CHECK(by_norm.clip_radius == Approx(15 + by_norm.center.norm()));
  request.preprocessing.bounds = {};
  request.preprocessing.bounds.range = std::pair{-12.0, 12.0};
  const auto by_range = app::private_pca(data.X, request);
  CHECK_FALSE(has_step(by_range.ledger, "norm scale"));
  // After centering every coordinate lies within max(12 - c_j, c_j + 12) of 0.
  const Eigen::VectorXd reach = (12 - by_range.center.array()).max(by_range.center.array() + 12).matrix();
  CHECK(by_range.clip_radius == Approx(reach.norm()));
  // Centering, column spreads, the algorithm and the explained variance: nothing else.
  CHECK(by_range.ledger.entries().size() == 4);
  request.preprocessing.bounds.norm_bound = 15.0;
  CHECK_THROWS_WITH(app::private_pca(data.X, request), Catch::Contains("not both"));
}

TEST_CASE("standardising puts columns in different units on one scale, and the report hints at it",
          "[verify][pca]") {
  // Issue 22: unscaled columns dominated with no hint to standardise.
  // n = 40000: the wide column spreads the record norms over many octaves, and each of the five norm
  // scales (eps 0.02) needs about 1850 records in one quarter-octave.
  auto data = two_components(40000, 0);
  data.X.row(19) *= 1000;  // a column in other units: spread 1000 against about 1
  auto request = centered_request();
  const auto raw = app::private_pca(data.X, request);
  REQUIRE(raw.warnings.size() == 1);
  // The wide column's own spread sets the noise of the others (clipping radius ~ 1000), so it is pc1 that
  // gives it away.
  CHECK_THAT(raw.warnings[0], Catch::Contains("--standardize") && Catch::Contains("'x20'"));
  CHECK(std::abs(raw.components(19, 0)) > 0.99);  // pc1 is the wide column
  request.preprocessing.standardize = true;
  const auto scaled = app::private_pca(data.X, request);
  CHECK(scaled.warnings.empty());
  // Standardised, the planted component is back on top (sin of a random direction: about 0.97).
  CHECK(core::sin_angle(scaled.components.leftCols(1), data.U) < 0.3);
  // The center and scale are reported in the data's own units, so (x - center) / scale is exactly the
  // map the PCA saw, though the second centering round ran on the scaled records.
  alg::Ledger ledger;
  const auto prepared = app::preprocess(data.X, request.preprocessing, request.privacy, 1, ledger);
  const Eigen::MatrixXd mapped =
      ((data.X.colwise() - prepared.center).array().colwise() / prepared.scale.array()).matrix();
  CHECK((mapped - prepared.data).cwiseAbs().maxCoeff() < 1e-9 * (1 + prepared.data.cwiseAbs().maxCoeff()));
  // Its scale is its standard deviation up to the spreads' noise (eps 0.025 a round): within 30%.
  CHECK(scaled.scale(19) == Approx(1000).epsilon(0.3));
}

TEST_CASE("a request a practitioner may regret is run with a warning, or refused with what is allowed",
          "[verify][pca]") {
  // Issue 22: delta = 0.5 and eps = 1e300 were accepted silently; eps = 1e-300 said "needs at least 0
  // records".
  const auto data = two_components(3000, 0);
  app::PcaRequest request;
  request.privacy = alg::Privacy{1.0, 0.5};
  CHECK_THAT(app::private_pca(data.X, request).warnings.at(0), Catch::Contains("not below 1/n"));
  request.privacy = alg::Privacy{1e300, 1e-6};
  CHECK_THAT(app::private_pca(data.X, request).warnings.at(0), Catch::Contains("above 10"));
  request.privacy = alg::Privacy{1e-300, 1e-6};
  CHECK_THROWS_WITH(app::private_pca(data.X, request), Catch::Contains("more than any data set holds"));
  // Too few records for a useful result: the covering theorem's rate is above 1.
  request.privacy = alg::Privacy{1.0, 1e-6};
  request.preprocessing.bounds.norm_bound = 200.0;
  const auto weak = app::private_pca(data.X.leftCols(60), request);
  REQUIRE(weak.accuracy);
  CHECK(weak.accuracy->theorem == "liu2022.eq3");
  CHECK_THAT(weak.warnings.back(), Catch::Contains("too few records for a useful result"));
}

TEST_CASE("private PCA recovers a planted spike and its ledger's total is the headline", "[verify][pca]") {
  const auto data = spiked_data(20000, 10, 1, 8.0, 4);
  app::PcaRequest request;
  request.k = 1;
  request.privacy = alg::Privacy{1.0, 1e-6};
  request.preprocessing.center = true;
  const auto result = app::private_pca(data.X, request);
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
  // Three norm scales around two centering rounds, column spreads, the Analyze-Gauss release, explained
  // variance.
  CHECK(result.ledger.entries().size() == 8);
  // Variance along the spike is 1 + lambda = 9 out of a total 9 + 9 = 18 (unit noise in 9 others).
  REQUIRE(result.explained.size() == 1);
  CHECK(result.explained(0) / result.total_variance == Approx(0.5).margin(0.1));
}

TEST_CASE("the clipping baselines take the preprocessing's radius on user data, with no special case",
          "[verify][pca]") {
  // Issue 24: `dpbounds pca` set baseline.dp_gauss_1's beta to its radius by id, and the other baselines that
  // clip to a model-derived radius could not run on user data at all. Each now reads Input::clip_radius.
  const auto data = spiked_data(20000, 6, 1, 8.0, 9);
  for (const std::string id : {"baseline.dp_gauss_1", "baseline.dp_gauss_2", "baseline.noisy_power_method"}) {
    CAPTURE(id);
    app::PcaRequest request;
    request.algorithm = id;
    request.privacy = alg::Privacy{1.0, 1e-6};
    const auto result = app::private_pca(data.X, request);
    CHECK(result.params.get_real("beta", -1, "test") == 0);  // the default, resolved by the algorithm itself
    REQUIRE(result.components.cols() == 1);
    // n = 2e4, d = 6, lambda = 8: each recovers the spike (a random direction gives sin ~0.9).
    CHECK(core::sin_angle(result.components, data.U) < 0.5);
  }
}

TEST_CASE("private PCA for k > 1 recovers the planted subspace and is deterministic for a seed", "[verify][pca]") {
  const auto data = spiked_data(20000, 8, 2, 8.0, 5);
  app::PcaRequest request;
  request.k = 2;
  request.privacy = alg::Privacy{1.0, 1e-6};
  const auto a = app::private_pca(data.X, request), b = app::private_pca(data.X, request);
  CHECK(a.components == b.components);
  CHECK(a.ledger.entries().size() == 4);  // norm scale, column spreads, Analyze-Gauss, explained variance
  CHECK(core::projector_distance(a.components, data.U, core::NormSpec{}) < 1.0);
}

TEST_CASE("private PCA refuses what it cannot run honestly", "[verify][pca]") {
  const auto data = spiked_data(2000, 6, 1, 4.0, 6);
  app::PcaRequest request;
  request.algorithm = "cai2024.gaussian_mechanism";
  CHECK_THROWS_WITH(app::private_pca(data.X, request), Catch::Contains("--accept-model-dependent-privacy"));
  request.algorithm = "baseline.nonprivate_pca";
  request.params = {};
  CHECK_THROWS_WITH(app::private_pca(data.X, request), Catch::Contains("not differentially private"));
  request.algorithm = "";
  request.k = 7;
  CHECK_THROWS_WITH(app::private_pca(data.X, request), Catch::Contains("1..d = 6"));
  request.k = 1;
  CHECK_THROWS_WITH(app::private_pca(data.X.leftCols(5), request), Catch::Contains("too few records"));
  // Issue 22: the help's example `--algorithm liu2022.dp_pca` failed with "needs lambda1 ... or run in
  // simulation with a model oracle". The algorithm itself now names the parameter to give (issue 24: before,
  // `dpbounds pca` caught it by id).
  request.algorithm = "liu2022.dp_pca";
  CHECK_THROWS_WITH(app::private_pca(data.X, request),
                    Catch::StartsWith("liu2022.dp_pca") && Catch::Contains("set the parameter c1 > 0"));
  // Issue 17: a mutant ran and printed "(1, 1e-06)-DP ... worst case".
  request.algorithm = "mutant.dp_gauss_halved_noise";
  CHECK_THROWS_WITH(app::private_pca(data.X, request), Catch::Contains("mutant"));
}

TEST_CASE("liu2022.dp_pca on user data chooses its own T, and its per-batch releases read as one line",
          "[verify][pca]") {
  // Before, `dpbounds pca` re-derived DP-PCA's largest feasible T by id; the algorithm now does it itself. Its
  // T releases on disjoint minibatches were T identical lines of the report.
  const auto data = spiked_data(50000, 4, 1, 4.0, 12);
  app::PcaRequest request;
  request.algorithm = "liu2022.dp_pca";
  request.params.set("c1", 0.2);
  request.privacy = alg::Privacy{0.8, 1e-6};
  const auto result = app::private_pca(data.X, request);
  CHECK(result.params.get_int("T", -1, "test") == 0);  // the default: no T was passed to it
  std::size_t histograms = 0;
  for (const auto& e : result.ledger.entries()) histograms += e.step.find("Alg. 4") != std::string::npos;
  REQUIRE(histograms > 1);
  const std::string text = app::to_text(result);
  CHECK_THAT(text, Catch::Contains("on each of " + std::to_string(histograms) + " disjoint batches of the records"));
  CHECK(dpb::test::occurrences(text, "histogram of subset top eigenvalues") == 1);
  // At 5e4 records Alg. 4's histograms release nothing at this budget: every step is skipped and the
  // component is DP-PCA's random start. Before, the report said nothing of it (the count is read off the
  // released histograms, so it may be shown).
  REQUIRE(result.warnings.size() == 1);
  CHECK_THAT(result.warnings[0], Catch::Contains("liu2022.dp_pca: " + std::to_string(histograms) + " of its " +
                                                 std::to_string(histograms) + " steps were skipped") &&
                                     Catch::Contains("random starting direction"));
  CHECK_THAT(text, Catch::Contains("random starting direction"));
}

TEST_CASE("private PCA prints no count read off the data", "[verify][pca][privacy]") {
  // Issue 17: "N records were clipped to radius R" went to stdout, summary.txt and pca.json, and two files
  // differing in one record gave 231 vs 232. Half the records here lie far outside any clip radius.
  auto data = spiked_data(4000, 5, 1, 4.0, 9);
  data.X.rightCols(2000) *= 50;
  app::PcaRequest request;
  request.privacy = alg::Privacy{1.0, 1e-6};
  const auto result = app::private_pca(data.X, request);
  const std::string text = app::to_text(result), json = app::to_json(result).dump();
  // Not centred: the report says what the components then describe (issue 22: pc1 was the mean direction
  // with no word about it).
  CHECK_THAT(text, Catch::Contains("--center gives the usual PCA"));
  // Issue 22: "every A_i trace-clipped ... (given, or from the model's population quantities)" meant
  // nothing to a practitioner; the report speaks of rows and records, the paper's terms stay in pca.json.
  CHECK_THAT(text, !Catch::Contains("A_i") && !Catch::Contains("population quantities"));
  CHECK_THAT(text, Catch::Contains("Any one row of the data could be replaced"));
  CHECK_THAT(text, !Catch::Contains("records were clipped"));
  CHECK_THAT(json, !Catch::Contains("records were clipped"));
  CHECK(result.warnings.empty());
}

TEST_CASE("every combination of centering, standardising and public bounds runs the steps it plans, within budget",
          "[verify][pca][privacy]") {
  const auto data = two_components(40000, 3);
  for (const bool center : {false, true})
    for (const bool standardize : {false, true})
      for (const int bound : {0, 1, 2}) {
        app::PcaRequest request;
        request.preprocessing.center = center;
        request.preprocessing.standardize = standardize;
        if (bound == 1) request.preprocessing.bounds.norm_bound = 40.0;
        if (bound == 2) request.preprocessing.bounds.range = std::pair{-10.0, 16.0};
        INFO("center " << center << ", standardize " << standardize << ", bound " << bound);
        const auto result = app::private_pca(data.X, request);
        const auto counts = app::preprocessing_steps(request.preprocessing);
        // Preprocessing, the algorithm and the explained variance: one use each (the ledger merges a
        // release repeated with the same calibration into one entry with more uses).
        long uses = 0;
        for (const auto& e : result.ledger.entries()) uses += e.uses;
        CHECK(uses == counts.norm_scales + counts.centering_rounds + counts.spread_rounds + 2);
        CHECK(result.total.epsilon <= request.privacy.epsilon * (1 + 1e-9));
        CHECK(result.radius_is_public == (bound == 2 || (bound == 1 && !standardize)));
        // Centred, the planted direction is found (uncentred, the mean direction (1, ..., 1)/sqrt 20
        // carries 9 * 20 = 180 of second moment and wins). The public range clips at its own corner,
        // about 57 against a private radius near 8, so its Analyze-Gauss noise is ~50x larger.
        if (center) CHECK(core::sin_angle(result.components, data.U) < (bound == 2 ? 0.6 : 0.3));
      }
}
