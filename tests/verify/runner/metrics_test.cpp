#include "verify/runner/metrics.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"

using namespace dpb::verify;

namespace {

// Truth: the first coordinate axis in R^3, Sigma = diag(2, 1, 1).
dpb::core::ModelInfo axis_truth() {
  dpb::core::ModelInfo truth;
  truth.Sigma = Eigen::Vector3d(2, 1, 1).asDiagonal();
  truth.target = Eigen::MatrixXd::Zero(3, 1);
  truth.target(0, 0) = 1;
  return truth;
}

}  // namespace

TEST_CASE("metrics against the model's truth, by the documented definitions", "[runner]") {
  const auto truth = axis_truth();
  const double angle = 0.3;
  dpb::alg::Estimate estimate;
  estimate.Q = Eigen::MatrixXd(3, 1);
  *estimate.Q << std::cos(angle), std::sin(angle), 0;
  const auto m = compute_metrics({"sin", "sin2", "projector_op", "projector_fro", "projector_nuclear",
                                  "projector_fro_normalized", "explained_variance"},
                                 estimate, truth);
  // The projector difference of two lines at angle t has singular values sin t, sin t.
  CHECK(m.at("sin") == Approx(std::sin(angle)).epsilon(1e-12));
  CHECK(m.at("sin2") == Approx(std::pow(std::sin(angle), 2)).epsilon(1e-12));
  CHECK(m.at("projector_op") == Approx(std::sin(angle)).epsilon(1e-12));
  CHECK(m.at("projector_fro") == Approx(std::sqrt(2.0) * std::sin(angle)).epsilon(1e-12));
  CHECK(m.at("projector_nuclear") == Approx(2 * std::sin(angle)).epsilon(1e-12));
  CHECK(m.at("projector_fro_normalized") == Approx(std::sqrt(2.0) * std::sin(angle)).epsilon(1e-12));  // r = 1
  // q^T Sigma q / tr Sigma with q = (cos t, sin t, 0), Sigma = diag(2, 1, 1).
  CHECK(m.at("explained_variance") ==
        Approx((2 * std::pow(std::cos(angle), 2) + std::pow(std::sin(angle), 2)) / 4).epsilon(1e-12));
}

TEST_CASE("a covariance estimate gives cov_ metrics and its top eigenvector for projector ones", "[runner]") {
  const auto truth = axis_truth();
  dpb::alg::Estimate estimate;
  estimate.Sigma = Eigen::Vector3d(2, 1.5, 1).asDiagonal();
  const auto m = compute_metrics({"cov_op", "cov_fro", "projector_fro"}, estimate, truth);
  CHECK(m.at("cov_op") == Approx(0.5));
  CHECK(m.at("cov_fro") == Approx(0.5));
  CHECK(m.at("projector_fro") == Approx(0).margin(1e-12));  // top eigenvector is still e1
}

TEST_CASE("metric names are checked, an estimate that gives no asked-for metric is an error", "[runner]") {
  CHECK_THROWS_WITH(require_metric("projector_forb"), "unknown metric 'projector_forb' (did you mean 'projector_fro'?)");
  CHECK(metric_names().size() == 19);  // 15 loss metrics, 4 statistic metrics
  dpb::alg::Estimate nothing;
  CHECK_THROWS_AS(compute_metrics({"sin"}, nothing, axis_truth()), dpb::InvalidArgument);
  nothing.Q = Eigen::MatrixXd::Identity(3, 1);
  // A subspace estimate has no cov_ metrics: they are left out, unless nothing else was asked for.
  CHECK(compute_metrics({"cov_fro", "sin"}, nothing, axis_truth()).count("cov_fro") == 0);
  CHECK_THROWS_AS(compute_metrics({"cov_fro"}, nothing, axis_truth()), dpb::InvalidArgument);
}

TEST_CASE("subspace chance levels: the mean distance to a uniformly random subspace", "[runner]") {
  // Monte Carlo over random rank-2 subspaces of R^6 (QR of a Gaussian matrix): the Frobenius level is
  // exact for the mean square, so the mean of squares matches within 3%; sin and the nuclear norm are
  // lower bounds of the mean. 2000 draws: the standard error of each mean is < 1%.
  const double r = 2, d = 6;
  Eigen::MatrixXd U = Eigen::MatrixXd::Identity(6, 6).leftCols(2);
  dpb::core::Rng rng(11, 0);
  double fro2 = 0, sin = 0, nuclear = 0;
  const int draws = 2000;
  for (int i = 0; i < draws; ++i) {
    Eigen::MatrixXd G(6, 2);
    for (Eigen::Index j = 0; j < G.size(); ++j) G.data()[j] = dpb::core::standard_normal(rng);
    const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ() * Eigen::MatrixXd::Identity(6, 2);
    fro2 += std::pow(dpb::core::projector_distance(U, Q, {dpb::core::Norm::fro, 2, false}), 2) / draws;
    sin += dpb::core::projector_distance(U, Q, {dpb::core::Norm::op, 2, false}) / draws;
    nuclear += dpb::core::projector_distance(U, Q, {dpb::core::Norm::schatten, 1, false}) / draws;
  }
  CHECK(std::pow(*subspace_chance_level("projector_fro", r, d), 2) == Approx(fro2).epsilon(0.03));
  CHECK(*subspace_chance_level("sin", r, d) <= sin);
  CHECK(*subspace_chance_level("projector_nuclear", r, d) <= nuclear);
  CHECK(*subspace_chance_level("projector_fro_normalized", r, d) ==
        Approx(*subspace_chance_level("projector_fro", r, d) / std::sqrt(r)));
  CHECK(*subspace_chance_level("sin2", r, d) == Approx(std::pow(*subspace_chance_level("sin", r, d), 2)));
  CHECK_FALSE(subspace_chance_level("cov_op", r, d).has_value());
  CHECK_FALSE(subspace_chance_level("diagnostic.range", r, d).has_value());
}

TEST_CASE("the chance level of sin for a line is the exact mean distance to a random line", "[runner]") {
  // E sin = 2/pi at d = 2 and pi/4 at d = 3 (closed forms); at d = 10 a Monte Carlo over 20000 random
  // lines (standard error of the mean ~0.0013) must agree within 0.006.
  CHECK(*subspace_chance_level("sin", 1, 2) == Approx(2 / M_PI).epsilon(1e-12));
  CHECK(*subspace_chance_level("projector_op", 1, 3) == Approx(M_PI / 4).epsilon(1e-12));
  CHECK(*subspace_chance_level("sin2", 1, 2) == Approx(0.5).epsilon(1e-12));  // E sin^2 = 1 - 1/d
  dpb::core::Rng rng(5, 0);
  const Eigen::VectorXd u = Eigen::VectorXd::Unit(10, 0);
  double mean = 0;
  const int draws = 20000;
  for (int i = 0; i < draws; ++i) mean += dpb::core::sin_angle(dpb::core::unit_sphere(rng, 10), u) / draws;
  CHECK(*subspace_chance_level("sin", 1, 10) == Approx(mean).margin(0.006));
}

TEST_CASE("diagnostic.<name> metrics read the estimate's counters, with or without Q", "[runner]") {
  const auto truth = axis_truth();
  dpb::alg::Estimate diagnostic_only;
  diagnostic_only.diagnostics.counters = {{"range_over_mean", 2.5}};
  const auto m = compute_metrics({"diagnostic.range_over_mean", "diagnostic.absent"}, diagnostic_only, truth);
  CHECK(m.size() == 1);  // a counter the estimator does not report is simply missing from its row
  CHECK(m.at("diagnostic.range_over_mean") == 2.5);
  CHECK_NOTHROW(require_metric("diagnostic.range_over_mean"));
  CHECK_THROWS_AS(require_metric("diagnostic."), dpb::InvalidArgument);
  // A loss metric still needs Q or Sigma, and an estimate giving none of the metrics is an error.
  CHECK_THROWS_AS(compute_metrics({"sin"}, diagnostic_only, truth), dpb::InvalidArgument);
  CHECK_THROWS_AS(compute_metrics({"diagnostic.absent"}, diagnostic_only, truth), dpb::InvalidArgument);
}
