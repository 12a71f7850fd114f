#include "verify/checks/bootstrap.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "support/statistics.hpp"
#include "verify/checks/sample_statistics.hpp"

using namespace dpb::verify;

TEST_CASE("bootstrap resamples draw from the sample, reproducibly per (cell, resample)",
          "[checks][bootstrap]") {
  const BootstrapStreams streams{3, "exp", "label"};
  const std::vector<double> values = {1, 2, 3, 4, 5, 6, 7, 8};
  auto a = streams.stream(2, 7), b = streams.stream(2, 7), c = streams.stream(2, 8);
  const auto ra = resample(values, a), rb = resample(values, b), rc = resample(values, c);
  CHECK(ra.size() == values.size());
  CHECK(ra == rb);
  CHECK(ra != rc);
  for (double v : ra) CHECK(std::find(values.begin(), values.end(), v) != values.end());
  CHECK_THROWS_AS(resample({}, a), dpb::InvalidArgument);
}

TEST_CASE("bootstrap resamples are uniform over the sample", "[checks][bootstrap]") {
  // 4000 resamples of 10 values: 40000 independent draws, each index with p = 0.1; a correct
  // sampler's frequency leaves the Bernstein band at alpha = 1e-6 with probability <= 1e-6.
  const BootstrapStreams streams{1, "exp", "uniform"};
  std::vector<double> values(10);
  for (int i = 0; i < 10; ++i) values[i] = i;
  std::vector<double> counts(10, 0);
  for (std::size_t b = 0; b < 4000; ++b) {
    auto rng = streams.stream(0, b);
    for (double v : resample(values, rng)) counts[static_cast<std::size_t>(v)] += 1;
  }
  const double band = dpb::test::bernstein_halfwidth(0.1, 40000, 1e-6);
  for (double c : counts) CHECK(std::abs(c / 40000 - 0.1) < band);
}

TEST_CASE("percentile interval takes the central quantiles", "[checks][bootstrap]") {
  std::vector<double> draws(101);
  for (int i = 0; i <= 100; ++i) draws[i] = i;
  const auto [lo, hi] = percentile_interval(draws, 0.9);
  CHECK(lo == Approx(5));
  CHECK(hi == Approx(95));
  CHECK_THROWS_AS(percentile_interval(draws, 1.0), dpb::InvalidArgument);
}
