#include "verify/runner/statistic_metrics.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "verify/runner/metrics.hpp"

using namespace dpb::verify;

namespace {

// A model that publishes r = 2 and lambda1 = 8.
dpb::core::ModelInfo truth() {
  dpb::core::ModelInfo t;
  t.Sigma = Eigen::Vector3d(8, 8, 1).asDiagonal();
  t.target = Eigen::MatrixXd::Identity(3, 2);
  t.params = {{"r", 2}, {"lambda1", 8}};
  return t;
}

dpb::alg::Estimate scalar(double value, std::string estimand) {
  dpb::alg::Estimate e;
  e.scalar = value;
  e.scalar_estimand = std::move(estimand);
  return e;
}

}  // namespace

TEST_CASE("scalar metrics against the quantity the scalar estimates", "[runner][metrics]") {
  const auto m = compute_metrics({"scalar_error", "scalar_ratio", "scalar_log2_ratio"}, scalar(4, "lambda1"), truth());
  CHECK(m.at("scalar_error") == Approx(4));        // |4 - 8|
  CHECK(m.at("scalar_ratio") == Approx(0.5));      // 4 / 8
  CHECK(m.at("scalar_log2_ratio") == Approx(1));   // |log2(1/2)|: one factor of 2 off
  const auto over = compute_metrics({"scalar_log2_ratio"}, scalar(8 * std::sqrt(2.0), "lambda1"), truth());
  CHECK(over.at("scalar_log2_ratio") == Approx(0.5));  // liu2022 Thm 6.1's edge, from above
  const auto rank = compute_metrics({"scalar_error"}, scalar(3, "r"), truth());
  CHECK(rank.at("scalar_error") == Approx(1));  // rhat = 3 against r = 2
}

TEST_CASE("scalar metrics exist only where the estimate and the model both have what they read", "[runner][metrics]") {
  const auto t = truth();
  CHECK(!statistic_metric("scalar_error", scalar(1, ""), t, nullptr));         // no estimand named
  CHECK(!statistic_metric("scalar_error", scalar(1, "sigma2"), t, nullptr));   // the model does not publish it
  CHECK(!statistic_metric("scalar_log2_ratio", scalar(0, "r"), t, nullptr));  // no factor of 2 reaches 0
  CHECK(!statistic_metric("scalar_log2_ratio", scalar(-1, "r"), t, nullptr));
  dpb::alg::Estimate nothing;
  nothing.scalar_estimand = std::string("r");
  CHECK(!statistic_metric("scalar_ratio", nothing, t, nullptr));
  CHECK_THROWS_AS(compute_metrics({"scalar_error"}, scalar(1, ""), t), dpb::InvalidArgument);
  // A scalar release asked for a subspace metric too gives only what it has.
  const auto mixed = compute_metrics({"sin", "scalar_ratio"}, scalar(2, "r"), t);
  CHECK(mixed.count("sin") == 0);
  CHECK(mixed.at("scalar_ratio") == Approx(1));
}

TEST_CASE("sample_mean_error measures a private mean against the trial's own sample mean", "[runner][metrics]") {
  dpb::alg::Estimate e;
  e.mean = Eigen::Vector3d(1, 2, 2);
  const Eigen::VectorXd sample_mean = Eigen::Vector3d(0, 0, 0);
  const auto m = compute_metrics({"sample_mean_error"}, e, truth(), &sample_mean);
  CHECK(m.at("sample_mean_error") == Approx(3));  // ||(1, 2, 2)||
  CHECK(!statistic_metric("sample_mean_error", e, truth(), nullptr));  // sample matrices: no vectors to average
  const Eigen::VectorXd wrong_size = Eigen::Vector2d(0, 0);
  CHECK(!statistic_metric("sample_mean_error", e, truth(), &wrong_size));
}

TEST_CASE("statistic metrics are known names", "[runner][metrics]") {
  for (const auto& name : statistic_metric_names()) {
    CHECK_NOTHROW(require_metric(name));
    CHECK(!subspace_chance_level(name, 1, 10));
  }
  CHECK_THROWS_WITH(require_metric("scalar_eror"), Catch::Contains("scalar_error"));
}
