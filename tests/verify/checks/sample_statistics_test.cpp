#include "verify/checks/sample_statistics.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

using namespace dpb::verify;

TEST_CASE("sample statistics: mean, sd with n - 1, type-7 quantiles", "[checks][statistics]") {
  const std::vector<double> x = {4, 1, 3, 2};
  CHECK(sample_mean(x) == 2.5);
  CHECK(sample_sd(x) == Approx(std::sqrt(5.0 / 3.0)).epsilon(1e-15));  // squares 2.25+0.25+0.25+2.25 over 3
  CHECK(sample_quantile(x, 0) == 1);
  CHECK(sample_quantile(x, 1) == 4);
  CHECK(sample_quantile(x, 0.5) == 2.5);                           // position 1.5
  CHECK(sample_quantile(x, 0.25) == Approx(1.75).epsilon(1e-15));  // position 0.75
  CHECK_THROWS_AS(sample_mean({}), dpb::InvalidArgument);
  CHECK_THROWS_AS(sample_sd({1}), dpb::InvalidArgument);
  CHECK_THROWS_AS(sample_quantile(x, 1.5), dpb::InvalidArgument);
}

TEST_CASE("least-squares slope recovers a line and refuses a single x", "[checks][statistics]") {
  CHECK(least_squares_slope({1, 2, 3}, {5, 3, 1}) == Approx(-2).epsilon(1e-15));
  CHECK(least_squares_slope({0, 1, 2, 3}, {0, 1, 1, 2}) == Approx(0.6).epsilon(1e-15));  // Sxy 3 / Sxx 5
  CHECK_THROWS_AS(least_squares_slope({1, 1}, {1, 2}), dpb::InvalidArgument);
  CHECK_THROWS_AS(least_squares_slope({1, 2}, {1}), dpb::InvalidArgument);
}
