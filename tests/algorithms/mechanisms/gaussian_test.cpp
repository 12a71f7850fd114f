#include "algorithms/mechanisms/gaussian.hpp"

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "core/errors.hpp"
#include "support/statistics.hpp"

using namespace dpb::alg;

namespace {

const std::vector<double> kEpsGrid{0.01, 0.1, 0.5, 1, 2, 5, 10};
const std::vector<double> kDeltaGrid{1e-10, 1e-6, 1e-3, 0.1};

// The privacy profile from its definition, by quadrature: for M(D) ~ N(0, z^2), M(D') ~ N(1, z^2)
// (Delta = 1), delta(eps) = integral of (p - e^eps q)_+, and p > e^eps q exactly left of
// x* = 1/2 - eps z^2. Independent of the closed form's Phi algebra.
double delta_by_quadrature(double z, double eps) {
  const double x_star = 0.5 - eps * z * z, norm = 1.0 / (z * std::sqrt(2 * std::numbers::pi));
  const auto integrand = [&](double t) {  // x = x* - t, t >= 0
    const double x = x_star - t;
    return norm * (std::exp(-x * x / (2 * z * z)) - std::exp(eps - (x - 1) * (x - 1) / (2 * z * z)));
  };
  return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
      integrand, 0.0, std::numeric_limits<double>::infinity(), 15, 1e-13);
}

// Strictly smaller while the larger value is positive; both may underflow to 0 far in the tail.
void check_decrease(double smaller, double larger) {
  CHECK(smaller <= larger);
  if (larger > 0) CHECK(smaller < larger);
}

}  // namespace

TEST_CASE("classical Gaussian sigma is Delta sqrt(2 log(1.25/delta)) / eps", "[mechanisms]") {
  // By hand: 2 sqrt(2 log(125000)) / 0.5 = 4 sqrt(2 * 11.736069) = 4 * 4.8448052 = 19.379221.
  CHECK(classical_gaussian_sigma(2.0, 0.5, 1e-5) == Approx(19.379221).epsilon(1e-7));
  CHECK(classical_gaussian_applies(0.999, 1e-5));
  CHECK_FALSE(classical_gaussian_applies(1.0, 1e-5));
  CHECK_THROWS_AS(classical_gaussian_sigma(1, 1.0, 1e-5), dpb::InvalidArgument);  // needs eps < 1
  CHECK_THROWS_AS(classical_gaussian_sigma(1, 2.0, 1e-5), dpb::InvalidArgument);
  CHECK_THROWS_AS(classical_gaussian_sigma(1, 0.5, 0.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(classical_gaussian_sigma(1, 0.5, 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(classical_gaussian_sigma(0, 0.5, 1e-5), dpb::InvalidArgument);
  CHECK_THROWS_AS(classical_gaussian_sigma(1, std::nan(""), 1e-5), dpb::InvalidArgument);
  CHECK_THROWS_AS(analytic_gaussian_sigma(1, 0.0, 1e-5), dpb::InvalidArgument);
  CHECK_THROWS_AS(analytic_gaussian_sigma(-1, 1.0, 1e-5), dpb::InvalidArgument);
  CHECK_THROWS_AS(analytic_gaussian_sigma(1, 1.0, 1.0), dpb::InvalidArgument);
}

TEST_CASE("gaussian_delta matches the privacy profile's definition", "[mechanisms]") {
  // eps = 0: delta is the total variation 2 Phi(1/(2z)) - 1; at z = 1 that is erf(1/(2 sqrt 2)).
  CHECK(gaussian_delta(1.0, 0.0) == Approx(0.38292492254802624).epsilon(1e-14));
  for (double z : {0.3, 1.0, 4.0, 40.0})
    for (double eps : {0.0, 0.05, 0.7, 3.0}) {
      const double closed = gaussian_delta(z, eps), integral = delta_by_quadrature(z, eps);
      if (integral < 1e-12) continue;  // quadrature has no relative accuracy below that
      CAPTURE(z, eps, closed, integral);
      CHECK(closed == Approx(integral).epsilon(1e-8));
    }
  CHECK_THROWS_AS(gaussian_delta(0.0, 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(gaussian_delta(1.0, -0.1), dpb::InvalidArgument);
  CHECK_THROWS_AS(gaussian_epsilon(1.0, 0.0), dpb::InvalidArgument);
}

TEST_CASE("analytic sigma achieves the target delta exactly and beats the classical sigma", "[mechanisms]") {
  for (double eps : kEpsGrid)
    for (double delta : kDeltaGrid) {
      const double sigma = analytic_gaussian_sigma(3.0, eps, delta);
      CAPTURE(eps, delta, sigma);
      // Tight: the exact profile at sigma/Delta equals the target (root found to ~1e-15 in log z).
      CHECK(gaussian_delta(sigma / 3.0, eps) == Approx(delta).epsilon(1e-9));
      if (classical_gaussian_applies(eps, delta)) CHECK(sigma <= classical_gaussian_sigma(3.0, eps, delta));
    }
}

TEST_CASE("gaussian_delta decreases in eps and in z, gaussian_epsilon inverts it", "[mechanisms]") {
  const std::vector<double> zs{0.2, 0.5, 1, 2, 5, 20, 100};
  const std::vector<double> epss{0, 0.01, 0.1, 0.5, 1, 2, 5};
  for (double z : zs)
    for (std::size_t i = 1; i < epss.size(); ++i) {
      CAPTURE(z, epss[i]);
      check_decrease(gaussian_delta(z, epss[i]), gaussian_delta(z, epss[i - 1]));
    }
  for (double eps : epss)
    for (std::size_t i = 1; i < zs.size(); ++i) {
      CAPTURE(eps, zs[i]);
      check_decrease(gaussian_delta(zs[i], eps), gaussian_delta(zs[i - 1], eps));
    }
  for (double z : zs)
    for (double delta : kDeltaGrid) {
      const double eps = gaussian_epsilon(z, delta);
      CAPTURE(z, delta, eps);
      if (gaussian_delta(z, 0.0) <= delta) {
        CHECK(eps == 0.0);
      } else {
        CHECK(gaussian_delta(z, eps) == Approx(delta).epsilon(1e-9));
        CHECK(gaussian_delta(z, eps) <= delta * (1 + 1e-12));  // the returned side satisfies the target
      }
    }
}

TEST_CASE("gaussian_mechanism adds N(0, sigma^2) noise and records its release", "[mechanisms]") {
  constexpr double sigma = 2.5, start = 3.0;
  Eigen::MatrixXd v = Eigen::MatrixXd::Constant(500, 400, start);
  dpb::core::Rng rng(7, dpb::core::hash_name("gaussian noise"));
  Ledger ledger;
  const LedgerEntry entry = gaussian_entry("matrix", 1.0, sigma, {0.5, 1e-5, Neighbours::replace});
  gaussian_mechanism(v, entry, ledger, rng);
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries().front().noise_scale == sigma);
  CHECK(ledger.entries().front().step == "matrix");
  std::vector<double> noise(v.data(), v.data() + v.size());
  for (double& x : noise) x -= start;
  const double n = static_cast<double>(noise.size());
  // CLT at 6 standard errors (two-sided normal tail 2e-9): sd(mean) = sigma/sqrt(n) and, for normal
  // data, sd(sample sd)/sigma = 1/sqrt(2n). A 1% scale error is 6.3 standard errors at n = 2e5.
  CHECK(std::abs(dpb::test::mean(noise)) <= 6 * sigma / std::sqrt(n));
  CHECK(std::abs(std::sqrt(dpb::test::variance(noise)) / sigma - 1) <= 6 / std::sqrt(2 * n));
  CHECK(dpb::test::ks_statistic(noise, [&](double x) { return dpb::test::normal_cdf(x / sigma); }) <=
        dpb::test::ks_critical(noise.size(), 1e-6));

  Eigen::MatrixXd w = Eigen::MatrixXd::Ones(2, 2);
  LedgerEntry scale = entry;
  scale.noise_scale = 0;
  gaussian_mechanism(w, scale, ledger, rng);
  CHECK(w == Eigen::MatrixXd::Ones(2, 2));
  scale.noise_scale = -1;
  CHECK_THROWS_AS(gaussian_mechanism(w, scale, ledger, rng), dpb::InvalidArgument);
  scale.noise_scale = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(gaussian_mechanism(w, scale, ledger, rng), dpb::InvalidArgument);
  CHECK_THROWS_AS(gaussian_mechanism(w, laplace_entry("l1", 1, 1, {1, 0, Neighbours::replace}), ledger, rng),
                  dpb::InvalidArgument);
}

TEST_CASE("gaussian_sigma is the one calibration dispatch", "[mechanisms]") {
  CHECK(gaussian_sigma(GaussianCalibration::classical, 2, 0.5, 1e-5) == classical_gaussian_sigma(2, 0.5, 1e-5));
  CHECK(gaussian_sigma(GaussianCalibration::analytic, 2, 1.5, 1e-5) == analytic_gaussian_sigma(2, 1.5, 1e-5));
  CHECK(parse_gaussian_calibration("analytic", "t") == GaussianCalibration::analytic);
  CHECK_THROWS_AS(parse_gaussian_calibration("exact", "t"), dpb::InvalidArgument);
}
