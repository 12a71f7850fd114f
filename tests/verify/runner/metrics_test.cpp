#include "verify/runner/metrics.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

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

TEST_CASE("metric names are checked; an estimate that gives no asked-for metric is an error", "[runner]") {
  CHECK_THROWS_WITH(require_metric("projector_forb"), "unknown metric 'projector_forb' (did you mean 'projector_fro'?)");
  CHECK(metric_names().size() == 15);
  dpb::alg::Estimate nothing;
  CHECK_THROWS_AS(compute_metrics({"sin"}, nothing, axis_truth()), dpb::InvalidArgument);
  nothing.Q = Eigen::MatrixXd::Identity(3, 1);
  // A subspace estimate has no cov_ metrics: they are left out, unless nothing else was asked for.
  CHECK(compute_metrics({"cov_fro", "sin"}, nothing, axis_truth()).count("cov_fro") == 0);
  CHECK_THROWS_AS(compute_metrics({"cov_fro"}, nothing, axis_truth()), dpb::InvalidArgument);
}
