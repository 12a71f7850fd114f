#include "core/models/support.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/linalg.hpp"
#include "tests/core/models/model_checks.hpp"

namespace ms = dpb::core::model_support;
using dpb::InvalidArgument;
using dpb::core::ParamMap;
using dpb::test::MessageContains;

TEST_CASE("model support: integer readers accept both ends of the range and name it", "[models]") {
  const ParamMap p{{"r", 3.0}, {"low", 1.0}, {"frac", 2.5}};
  CHECK(ms::read_int_in(p, "r", 9, 1, 3, "own") == 3);
  CHECK(ms::read_int_in(p, "low", 9, 1, 3, "own") == 1);
  CHECK(ms::read_int_in(p, "absent", 2, 1, 3, "own") == 2);
  CHECK_THROWS_WITH(ms::read_int_in(p, "r", 9, 1, 2, "own"), "own: parameter 'r' must be an integer in [1, 2], got 3");
  CHECK_THROWS_WITH(ms::read_int_in(p, "low", 9, 2, 3, "own"),
                    "own: parameter 'low' must be an integer in [2, 3], got 1");
  CHECK_THROWS_WITH(ms::read_int_in(p, "frac", 9, 1, 3, "own"), Catch::Contains("'frac' must be an integer"));

  // The dimension: d >= 2 (up to 2^31), p as its alias, both only when equal.
  CHECK(ms::read_dimension({}, 20, "own") == 20);
  CHECK(ms::read_dimension({{"d", 2.0}}, 20, "own") == 2);
  CHECK(ms::read_dimension({{"d", 2147483648.0}}, 20, "own") == 2147483648LL);
  CHECK(ms::read_dimension({{"p", 7.0}}, 20, "own") == 7);
  CHECK(ms::read_dimension({{"d", 7.0}, {"p", 7.0}}, 20, "own") == 7);
  CHECK_THROWS_WITH(ms::read_dimension({{"d", 1.0}}, 20, "own"),
                    "own: parameter 'd' must be an integer in [2, 2147483648], got 1");
  CHECK_THROWS_WITH(ms::read_dimension({{"p", 2147483649.0}}, 20, "own"), Catch::Contains("'p' must be an integer"));
  CHECK_THROWS_WITH(ms::read_dimension({{"d", 7.0}, {"p", 8.0}}, 20, "own"),
                    "own: 'p' is an alias of 'd'; got d=7 and p=8");
}

TEST_CASE("model support: positive reals and descending lists", "[models]") {
  CHECK(ms::read_positive({{"s", 1e-300}}, "s", 1, "own") == 1e-300);
  CHECK(ms::read_positive({}, "s", 2.5, "own") == 2.5);
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::infinity()}) {
    INFO(bad);
    CHECK_THROWS_MATCHES(ms::read_positive({{"s", bad}}, "s", 1, "own"), InvalidArgument,
                         MessageContains("own: parameter 's' must be a finite number > 0"));
  }
  CHECK_THROWS_WITH(ms::read_positive({{"s", std::string("x")}}, "s", 1, "own"), Catch::Contains("must be a number"));

  using List = std::vector<double>;
  const auto list = [](const ParamMap& p, Eigen::Index length) {
    return ms::read_descending_positive_list(p, "l", length, "own");
  };
  CHECK(list({{"l", List{3, 3, 1}}}, -1) == Eigen::Vector3d(3, 3, 1));  // ties are non-increasing
  CHECK(list({{"l", List{3, 1}}}, 2) == Eigen::Vector2d(3, 1));
  CHECK(list({{"l", 4.0}}, 1) == Eigen::VectorXd::Constant(1, 4.0));  // a number is a one-entry list
  const std::string empty = "own: parameter 'l' must be a non-empty list of numbers";
  CHECK_THROWS_WITH(list({}, -1), empty);
  CHECK_THROWS_WITH(list({{"l", List{}}}, -1), empty);
  CHECK_THROWS_WITH(list({{"l", List{3, 1}}}, 3), "own: parameter 'l' must have 3 entries, got 2");
  CHECK_THROWS_WITH(list({{"l", List{3, 3.5}}}, -1), "own: 'l' must be non-increasing (largest first)");
  CHECK_THROWS_WITH(list({{"l", List{3, 0}}}, -1), "own: entries of 'l' must be finite and > 0, got 0");
  CHECK_THROWS_WITH(list({{"l", List{std::nan("")}}}, -1), Catch::Contains("entries of 'l' must be finite"));
}

TEST_CASE("model support: spike lists agree with their count and fit in d", "[models]") {
  using List = std::vector<double>;
  CHECK(ms::read_spike_list({{"lambdas", List{5, 2, 1}}}, "lambdas", "r", 3, "own").size() == 3);  // = d
  CHECK(ms::read_spike_list({{"lambdas", List{5, 2}}, {"r", 2.0}}, "lambdas", "r", 3, "own").size() == 2);
  CHECK_THROWS_WITH(ms::read_spike_list({{"lambdas", List{5, 2, 2, 1}}}, "lambdas", "r", 3, "own"),
                    "own: 'lambdas' has 4 entries but d = 3; need r <= d");
  CHECK_THROWS_WITH(ms::read_spike_list({{"lambdas", List{5, 2, 2, 1}}, {"r", 4.0}}, "lambdas", "r", 3, "own"),
                    "own: parameter 'r' must be an integer in [1, 3], got 4");
  CHECK_THROWS_WITH(ms::read_spike_list({{"lambdas", List{5, 2}}, {"k", 1.0}}, "lambdas", "k", 3, "own"),
                    "own: parameter 'lambdas' must have 1 entries, got 2");
}

TEST_CASE("model support: low-rank-plus-identity summary by hand", "[models]") {
  // U = [(e1 + e2)/sqrt2, (e3 - e4)/sqrt2], spikes (3, 1), floor 0.5: eigenvalues (3.5, 1.5, 0.5, 0.5).
  Eigen::MatrixXd U = Eigen::MatrixXd::Zero(4, 2);
  U(0, 0) = U(1, 0) = U(2, 1) = 1 / std::sqrt(2.0);
  U(3, 1) = -1 / std::sqrt(2.0);
  const auto info = ms::low_rank_plus_identity_info("my_model", U, Eigen::Vector2d(3, 1), 0.5);
  Eigen::MatrixXd Sigma(4, 4);
  Sigma << 2, 1.5, 0, 0,  //
      1.5, 2, 0, 0,       //
      0, 0, 1, -0.5,      //
      0, 0, -0.5, 1;
  CHECK(info.model == "my_model");
  CHECK((info.Sigma - Sigma).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(info.eigenvalues == Eigen::Vector4d(3.5, 1.5, 0.5, 0.5));
  CHECK(info.target == U);
  REQUIRE(info.kappa);
  CHECK(*info.kappa == 1.75);  // 3.5 / (3.5 - 1.5)
  // gap = lambda_r - lambda_{r+1} = 1.5 - 0.5 for the rank-2 target.
  CHECK(info.params == std::map<std::string, double>{
                           {"d", 4}, {"p", 4}, {"r", 2}, {"lambda1", 3.5}, {"lambda2", 1.5}, {"gap", 1.0}});
  // The stated eigenvalues are Sigma's.
  const Eigen::VectorXd ev = dpb::core::symmetric_eigenvalues(info.Sigma).reverse();
  CHECK((ev - info.eigenvalues).cwiseAbs().maxCoeff() < 1e-14);

  // Equal spikes: lambda1 = lambda2, no kappa.
  CHECK_FALSE(ms::low_rank_plus_identity_info("eq", U, Eigen::Vector2d(2, 2), 0.5).kappa);
}

TEST_CASE("model support: closed forms published only when set, sample counts >= 0", "[models]") {
  dpb::core::ModelInfo info;
  info.params = {{"d", 3}};
  info.V = 2.5;
  info.kappa = 1.25;
  ms::publish_closed_forms(info);
  CHECK(info.params == std::map<std::string, double>{{"d", 3}, {"V", 2.5}, {"kappa", 1.25}});
  info.gamma2 = 0.5;
  info.effective_rank = 7;
  ms::publish_closed_forms(info);
  CHECK(info.params.at("gamma2") == 0.5);
  CHECK(info.params.at("effective_rank") == 7);
  CHECK_FALSE(info.params.count("v0"));  // no eigenvalues, no lambda1 to scale V by

  // Assumption A's V and gamma give dugler2026's Assumption B constants: v0 = lambda1 sqrt(V), g0 = lambda1 gamma.
  dpb::core::ModelInfo scaled;
  scaled.eigenvalues = Eigen::Vector2d(4, 1);
  scaled.V = 2.25;
  scaled.gamma2 = 0.25;
  ms::publish_closed_forms(scaled);
  CHECK(scaled.params.at("v0") == Approx(6));
  CHECK(scaled.params.at("g0") == Approx(2));
  CHECK(scaled.params.at("v1") == 0);
  CHECK(scaled.params.at("g1") == 0);

  CHECK_NOTHROW(ms::require_sample_count(0, "own"));
  CHECK_THROWS_WITH(ms::require_sample_count(-1, "own"), "own: sample count n must be >= 0, got -1");
}
