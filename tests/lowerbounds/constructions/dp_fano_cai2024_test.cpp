#include "lowerbounds/constructions/dp_fano_cai2024.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

using dpb::lower::dp_fano_cai2024;
using dpb::lower::DpFanoCai2024Input;
using dpb::lower::gaussian_kl;
using dpb::lower::GroupPrivacyExponent;
using dpb::lower::kLemma12EpsilonLimit;

TEST_CASE("cai2024 DP Fano: both terms against eq. (9) computed by hand", "[cai2024][constructions]") {
  // N = e^10, rho0 = 2, l0 = 3, t0 = 0.5, eps = 0.5, delta = 1e-3:
  //   Fano    = (2/2)(1 - (3 + log 2)/10) = 1 - 0.3693147 = 0.6306853
  //   a       = 4 * 0.5 * 0.5 = 1;  (N - 1) e^{-1} >> 1, so the mass is 1
  //   private = (2/4)(1 - 2e-3 e / (e^0.5 - 1)) = 0.5 (1 - 0.0054366 / 0.6487213) = 0.5 * 0.9916196 =
  //   0.4958098
  const auto v = dp_fano_cai2024({10, 2, 3, 0.5, 0.5, 1e-3});
  CHECK(v.exponent == Approx(1.0));
  CHECK(v.fano == Approx(0.6306853).epsilon(1e-6));
  CHECK(v.private_term == Approx(0.4958098).epsilon(1e-6));
  CHECK(v.value() == Approx(0.6306853).epsilon(1e-6));

  // N = 2 (log N = log 2), rho0 = 1, l0 = 0.1, t0 = 0.25, eps = 1, delta = 0:
  //   Fano = (1/2)(1 - (0.1 + log 2)/log 2) < 0, floored at 0
  //   private = (1/4) min(1, 1 * e^{-1}) = 0.25 * 0.3678794 = 0.0919699
  const auto two = dp_fano_cai2024({std::log(2.0), 1, 0.1, 0.25, 1, 0});
  CHECK(two.fano == 0);
  CHECK(two.private_term == Approx(0.0919699).epsilon(1e-6));
}

TEST_CASE("cai2024 DP Fano: Lemma 12's exponent switches to (e^eps - 1) beyond its limit (A14)",
          "[cai2024][constructions]") {
  // The limit is the root of 2 eps + 1 = e^eps ...
  CHECK(std::abs(2 * kLemma12EpsilonLimit + 1 - std::exp(kLemma12EpsilonLimit)) < 1e-12);
  // ... below which e^{2 eps t} >= 1 - t + t e^eps on [0, 1], and above which it fails near t = 0.
  const auto gap = [](double eps, double t) { return std::exp(2 * eps * t) - (1 - t + t * std::exp(eps)); };
  for (int i = 0; i <= 100; ++i) CHECK(gap(kLemma12EpsilonLimit - 1e-6, i / 100.0) >= -1e-15);
  CHECK(gap(kLemma12EpsilonLimit + 0.05, 0.01) < 0);
  // eps = 2 (beyond): a = 2 (e^2 - 1) t0 = 2 * 6.3890561 * 0.1 = 1.2778112 in either mode.
  CHECK(dp_fano_cai2024({5, 1, 0, 0.1, 2, 0}).exponent == Approx(1.2778112).epsilon(1e-7));
  // eps = 1 (below): faithful a = 4 * 1 * 0.1 = 0.4; tight a = 2 (e - 1) 0.1 = 0.3436564.
  CHECK(dp_fano_cai2024({5, 1, 0, 0.1, 1, 0, GroupPrivacyExponent::faithful}).exponent == Approx(0.4));
  CHECK(dp_fano_cai2024({5, 1, 0, 0.1, 1, 0, GroupPrivacyExponent::tight}).exponent ==
        Approx(0.3436564).epsilon(1e-6));
}

TEST_CASE("cai2024 DP Fano: non-increasing in n and in eps (per-sample KL and TV fixed)",
          "[cai2024][constructions]") {
  // One family: log N = 8, rho0 = 1, per-sample KL 1e-3 and TV sqrt(KL/2); n samples multiply both.
  const double kl = 1e-3, tv = std::sqrt(kl / 2);
  const auto value = [&](double n, double eps) {
    return dp_fano_cai2024({8, 1, n * kl, n * tv, eps, 0}).value();
  };
  double previous = value(1, 0.5);
  for (double n = 2; n <= 1e5; n *= 2) {
    const double v = value(n, 0.5);
    CHECK(v <= previous);
    previous = v;
  }
  CHECK(value(1e5, 0.5) < value(1, 0.5));
  previous = value(200, 0.05);
  for (double eps = 0.1; eps <= 4; eps *= 1.5) {
    const double v = value(200, eps);
    CHECK(v <= previous);
    previous = v;
  }
  // Here the Fano term (eps-free) dominates; the private term itself falls strictly: a = 4 eps t0 with
  // t0 = 200 * 0.0223607 = 4.47 gives mass 1 at eps = 0.05 and e^{8 - 71.6} at eps = 4.
  const auto private_term = [&](double eps) {
    return dp_fano_cai2024({8, 1, 200 * kl, 200 * tv, eps, 0}).private_term;
  };
  CHECK(private_term(0.05) == Approx(0.25));
  CHECK(private_term(4) < 1e-20);
}

TEST_CASE("cai2024 DP Fano: inputs outside the lemma are refused", "[cai2024][constructions]") {
  CHECK_THROWS_WITH(dp_fano_cai2024({0.1, 1, 0, 0, 1, 0}), Catch::Contains("N >= 2"));
  CHECK_THROWS_AS(dp_fano_cai2024({5, 0, 0, 0, 1, 0}), dpb::InvalidArgument);
  CHECK_THROWS_AS(dp_fano_cai2024({5, 1, -1, 0, 1, 0}), dpb::InvalidArgument);
  CHECK_THROWS_AS(dp_fano_cai2024({5, 1, 0, 0, 0, 0}), dpb::InvalidArgument);
  CHECK_THROWS_WITH(dp_fano_cai2024({5, 1, 0, 0, 1, 1}), Catch::Contains("delta"));
  // The one rule for epsilon (alg::validate_epsilon): infinity is refused like 0.
  CHECK_THROWS_WITH(dp_fano_cai2024({5, 1, 0, 0, std::numeric_limits<double>::infinity(), 0}),
                    "cai2024 DP Fano: epsilon must be a finite number > 0, got inf");
}

TEST_CASE("gaussian_kl: closed forms of centred Gaussians", "[cai2024][constructions]") {
  // 1-D: KL(N(0,2) || N(0,3)) = (2/3 - 1 + log(3/2))/2 = (-0.3333333 + 0.4054651)/2 = 0.0360659.
  CHECK(gaussian_kl(Eigen::MatrixXd::Constant(1, 1, 2), Eigen::MatrixXd::Constant(1, 1, 3)) ==
        Approx(0.0360659).epsilon(1e-5));
  // Diagonal: the sum of the 1-D terms; KL(N(0,4)||N(0,1)) = (4 - 1 - log 4)/2 = 0.8068528.
  Eigen::MatrixXd S1 = Eigen::Vector2d(2, 4).asDiagonal(), S2 = Eigen::Vector2d(3, 1).asDiagonal();
  CHECK(gaussian_kl(S1, S2) == Approx(0.0360659 + 0.8068528).epsilon(1e-6));
  // Invariant under a common rotation, zero on equal arguments.
  const double c = std::cos(0.3), s = std::sin(0.3);
  Eigen::Matrix2d R;
  R << c, -s, s, c;
  CHECK(gaussian_kl(R * S1 * R.transpose(), R * S2 * R.transpose()) ==
        Approx(0.0360659 + 0.8068528).epsilon(1e-6));
  CHECK(std::abs(gaussian_kl(S1, S1)) < 1e-14);
  CHECK_THROWS_AS(gaussian_kl(S1, Eigen::Matrix2d::Zero()), dpb::InvalidArgument);
  CHECK_THROWS_AS(gaussian_kl(S1, Eigen::Matrix3d::Identity()), dpb::InvalidArgument);
}
