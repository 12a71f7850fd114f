#include "algorithms/sparse/sparse_common.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

using namespace dpb::alg;

TEST_CASE("sparse constants: scale noise only when scaled", "[kumar2025]") {
  const SparseConstants priv{false, 0.1};
  CHECK(priv.name() == "private");
  CHECK(priv.noise(2.0) == 2.0);  // the factor is ignored in private mode
  const SparseConstants scaled{true, 0.1};
  CHECK(scaled.name() == "scaled_not_private");
  CHECK(scaled.noise(2.0) == Approx(0.2).epsilon(1e-15));
}

TEST_CASE("sparse constants: scaled mode marks the claim not private and notes the diagnostics",
          "[kumar2025]") {
  PrivacyClaim claim{1.0, 1e-5, Neighbours::replace, ClaimScope::worst_case, {"earlier"}};
  Diagnostics diagnostics;
  mark_if_scaled(SparseConstants{}, claim);
  mark_if_scaled(SparseConstants{}, diagnostics);
  CHECK(claim.epsilon == 1.0);
  CHECK(claim.scope == ClaimScope::worst_case);
  CHECK(claim.conditions.size() == 1);
  CHECK(diagnostics.notes.empty());
  CHECK(diagnostics.counters.empty());

  const SparseConstants scaled{true, 0.25};
  mark_if_scaled(scaled, claim);
  mark_if_scaled(scaled, diagnostics);
  CHECK(claim.scope == ClaimScope::not_private);
  CHECK(claim.epsilon == 0);
  CHECK(claim.delta == 0);
  REQUIRE(claim.conditions.size() == 2);
  CHECK_THAT(claim.conditions[0], Catch::StartsWith("constants=scaled_not_private: NOT differentially private") &&
                                      Catch::Contains("noise scaled by 0.25"));
  CHECK(claim.conditions[1] == "earlier");
  REQUIRE(diagnostics.notes.size() == 1);
  CHECK_THAT(diagnostics.notes[0], Catch::StartsWith("constants=scaled_not_private: NOT differentially private") &&
                                       Catch::EndsWith("x0.25"));
  CHECK(diagnostics.counters.at("scaled_noise_factor") == 0.25);
}

TEST_CASE("sparse public inputs: given wins, else the oracle, else an error naming the parameter",
          "[kumar2025]") {
  dpb::core::ModelInfo info;
  info.params = {{"subgaussian_sigma2", 3.0}, {"zero", 0.0}};
  CHECK(public_or_oracle(2.0, &info, "subgaussian_sigma2", "sigma2", "own") == 2.0);
  CHECK(public_or_oracle(0.0, &info, "subgaussian_sigma2", "sigma2", "own") == 3.0);
  const std::string missing =
      "own: parameter 'sigma2' is 0 (= read the model's 'subgaussian_sigma2'), but no oracle with that quantity "
      "was given; pass sigma2 > 0 explicitly (on real data it is a public input)";
  CHECK_THROWS_WITH(public_or_oracle(0.0, nullptr, "subgaussian_sigma2", "sigma2", "own"), missing);
  dpb::core::ModelInfo empty;
  CHECK_THROWS_WITH(public_or_oracle(0.0, &empty, "subgaussian_sigma2", "sigma2", "own"), missing);
  CHECK_THROWS_WITH(public_or_oracle(0.0, &info, "zero", "sigma2", "own"),
                    "own: 'sigma2' must be finite and > 0, got 0");
  CHECK_THROWS_WITH(public_or_oracle(std::numeric_limits<double>::infinity(), &info, "zero", "sigma2", "own"),
                    "own: 'sigma2' must be finite and > 0, got inf");
}

TEST_CASE("sparse relative gap: given, oracle gamma, or 1 - lambda2/lambda1, must satisfy 0 < gamma <= 1",
          "[kumar2025]") {
  dpb::core::ModelInfo lambdas;
  lambdas.params = {{"lambda1", 4.0}, {"lambda2", 3.0}};
  dpb::core::ModelInfo both = lambdas;
  both.params["gamma"] = 0.6;
  CHECK(gap_or_oracle(0.5, &both, "own") == 0.5);
  CHECK(gap_or_oracle(1.0, nullptr, "own") == 1.0);  // the closed end
  CHECK(gap_or_oracle(0.0, &both, "own") == 0.6);    // the oracle's gamma before the eigenvalues
  CHECK(gap_or_oracle(0.0, &lambdas, "own") == 0.25);
  CHECK_THROWS_WITH(gap_or_oracle(1.5, nullptr, "own"), "own: the relative gap gamma must lie in (0, 1], got 1.5");
  lambdas.params["lambda2"] = 4.0;  // no gap: gamma = 0
  CHECK_THROWS_WITH(gap_or_oracle(0.0, &lambdas, "own"), "own: the relative gap gamma must lie in (0, 1], got 0");
  lambdas.params.erase("lambda2");  // lambda1 alone does not give a gap
  CHECK_THROWS_WITH(gap_or_oracle(0.0, &lambdas, "own"), Catch::Contains("parameter 'gamma' is 0"));
  CHECK_THROWS_WITH(gap_or_oracle(0.0, nullptr, "own"), Catch::Contains("pass gamma > 0 explicitly"));
}

TEST_CASE("sparse input validation: each boundary and its message", "[kumar2025]") {
  const Eigen::MatrixXd X = Eigen::MatrixXd::Ones(3, 5);
  const Privacy ok{1.0, 0.1};
  CHECK_NOTHROW(validate_sparse_input(&X, 1, ok, true, 5, "own"));
  CHECK_NOTHROW(validate_sparse_input(&X, 3, ok, true, 5, "own"));  // k = d
  CHECK_NOTHROW(validate_sparse_input(&X, 3, {1.0, 0.0}, false, 5, "own"));
  CHECK_THROWS_WITH(validate_sparse_input(nullptr, 1, ok, true, 1, "own"),
                    "own: needs vector data (Input.X, d x n, samples are columns)");
  const Eigen::MatrixXd thin = Eigen::MatrixXd::Ones(1, 5);
  CHECK_THROWS_WITH(validate_sparse_input(&thin, 1, ok, true, 1, "own"), "own: need dimension d >= 2, got d = 1");
  CHECK_THROWS_WITH(validate_sparse_input(&X, 1, ok, true, 6, "own"),
                    "own: need at least 6 samples (columns), got n = 5");
  CHECK_THROWS_WITH(validate_sparse_input(&X, 0, ok, true, 5, "own"), "own: need 1 <= k <= d = 3, got k = 0");
  CHECK_THROWS_WITH(validate_sparse_input(&X, 4, ok, true, 5, "own"), "own: need 1 <= k <= d = 3, got k = 4");
  Eigen::MatrixXd nan = X;
  nan(2, 4) = std::nan("");
  CHECK_THROWS_WITH(validate_sparse_input(&nan, 1, ok, true, 5, "own"),
                    "own: the data contain NaN or infinite values");
  CHECK_THROWS_AS(validate_sparse_input(&X, 1, {0.0, 0.1}, true, 5, "own"), dpb::InvalidArgument);
  CHECK_THROWS_WITH(validate_sparse_input(&X, 1, {1.0, 0.0}, true, 5, "own"),
                    "own: (eps, delta)-DP algorithm: delta must lie in (0, 1), got 0");
  CHECK_THROWS_WITH(validate_sparse_input(&X, 1, {1.0, 0.1, Neighbours::add_remove}, true, 5, "own"),
                    Catch::Contains("replace-one neighbours only"));
}
