#include "algorithms/covariance/marchenko_pastur.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"

namespace {

using dpb::alg::MarchenkoPastur;

// Ratio 1 in closed form: with x = 4 sin^2 phi the density sqrt((4 - x)/x)/(2 pi) dx becomes
// (4/pi) cos^2 phi dphi, so P(X <= x) = (2 phi + sin 2 phi)/pi.
double ratio_one_cdf(double x) {
  const double phi = std::asin(std::sqrt(x / 4));
  return (2 * phi + std::sin(2 * phi)) / M_PI;
}

}  // namespace

TEST_CASE("Marchenko–Pastur rejects invalid ratios, tolerances and levels", "[cai2024]") {
  CHECK_THROWS_AS(MarchenkoPastur(0.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(MarchenkoPastur(-1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(MarchenkoPastur(std::nan("")), dpb::InvalidArgument);
  CHECK_THROWS_AS(MarchenkoPastur(1.0, 0.0), dpb::InvalidArgument);
  const MarchenkoPastur law(0.5);
  CHECK_THROWS_AS(law.upper_quantile(1.5), dpb::InvalidArgument);
  CHECK_THROWS_AS(law.upper_quantile(-0.1), dpb::InvalidArgument);
  CHECK(law.upper_quantile(0.0) == law.upper_edge());
  CHECK(law.upper_quantile(1.0) == law.lower_edge());
}

TEST_CASE("Marchenko–Pastur: edges, unit mass for every ratio, zero outside the support", "[cai2024]") {
  for (const double ratio : {0.01, 0.3, 1.0, 2.5, 10.0}) {
    const MarchenkoPastur law(ratio);
    CHECK(law.lower_edge() == Approx(std::pow(1 - std::sqrt(ratio), 2)).margin(1e-15));
    CHECK(law.upper_edge() == Approx(std::pow(1 + std::sqrt(ratio), 2)));
    // The (1 ∧ ratio) normalisation makes the zero-excluded law a probability for ratio > 1 too.
    CHECK(law.upper_tail(law.lower_edge()) == Approx(1.0).epsilon(1e-9));
    CHECK(law.upper_tail(law.upper_edge()) == 0.0);
    CHECK(law.density(law.upper_edge() + 0.1) == 0.0);
    CHECK(law.density(law.lower_edge() / 2) == 0.0);
  }
}

TEST_CASE("Marchenko–Pastur at ratio 1 matches the closed-form CDF and the hand-solved median", "[cai2024]") {
  const MarchenkoPastur law(1.0);
  for (const double x : {0.01, 0.2, 0.65, 1.0, 2.0, 3.5, 3.99})
    CHECK(law.upper_tail(x) == Approx(1 - ratio_one_cdf(x)).epsilon(1e-9));
  // Median by bisection on the closed form (independent of the quadrature and the root finder).
  double lo = 0, hi = 4;
  for (int i = 0; i < 200; ++i) (ratio_one_cdf((lo + hi) / 2) < 0.5 ? lo : hi) = (lo + hi) / 2;
  CHECK(law.upper_quantile(0.5) == Approx(lo).epsilon(1e-9));
  CHECK(lo == Approx(0.6528).margin(1e-3));  // the known MP(1) median, ~0.6528
  // Density by hand: f(1) = sqrt(1 * 3)/(2 pi).
  CHECK(law.density(1.0) == Approx(std::sqrt(3.0) / (2 * M_PI)).epsilon(1e-14));
}

TEST_CASE("Marchenko–Pastur quantiles: duality, mean and the small-ratio limit", "[cai2024]") {
  // The nonzero eigenvalues of Z Z^T/n (p > n) are those of (p/n) Z^T Z/p: q(a; g) = g q(a; 1/g).
  for (const double g : {4.0, 2.0}) {
    const MarchenkoPastur wide(g), tall(1 / g);
    for (const double a : {0.1, 0.5, 0.9})
      CHECK(wide.upper_quantile(a) == Approx(g * tall.upper_quantile(a)).epsilon(1e-8));
  }
  // Mean of the zero-excluded law: tr(Z Z^T/n)/(p ∧ n) -> max(1, ratio). E X = int_0^1 q(a) da, by
  // the midpoint rule on 2000 points (error O(N^-1.5) at the square-root edges, < 1e-4 here).
  for (const double g : {0.5, 3.0}) {
    const MarchenkoPastur law(g);
    const int N = 2000;
    double mean = 0;
    for (int i = 0; i < N; ++i) mean += law.upper_quantile((i + 0.5) / N) / N;
    CHECK(mean == Approx(std::max(1.0, g)).epsilon(1e-4));
  }
  // ratio -> 0: the law collapses on 1 (a semicircle of radius 2 sqrt(ratio)); the median is 1 - O(ratio).
  const MarchenkoPastur thin(1e-4);
  CHECK(thin.upper_quantile(0.5) == Approx(1.0).margin(2e-4));
  // Quantile and tail are inverse to each other.
  const MarchenkoPastur law(0.37);
  for (const double a : {0.05, 0.25, 0.5, 0.75, 0.95})
    CHECK(law.upper_tail(law.upper_quantile(a)) == Approx(a).epsilon(1e-9));
}
