#include "algorithms/baselines/analyze_gauss.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"
#include "tests/support/statistics.hpp"

namespace base = dpb::alg::baselines;
using dpb::alg::ClaimScope;
using dpb::alg::Neighbours;
using dpb::alg::Privacy;

TEST_CASE("analyze_gauss: calibration schema entry and noise sd against their formulas", "[baselines]") {
  using dpb::alg::GaussianCalibration;
  // The parameter's strings are the shared calibration's (algorithms/mechanisms/gaussian.hpp).
  CHECK(dpb::alg::parse_gaussian_calibration("classical", "own") == GaussianCalibration::classical);
  CHECK(dpb::alg::parse_gaussian_calibration("analytic", "own") == GaussianCalibration::analytic);
  CHECK_THROWS_WITH(dpb::alg::parse_gaussian_calibration("Analytic", "own"),
                    Catch::Contains("'classical' or 'analytic', got 'Analytic'"));

  struct Params {
    GaussianCalibration calibration = base::kAnalyzeGaussCalibration;
  };
  dpb::alg::FieldTable<Params> fields;
  base::analyze_gauss_calibration_field(fields, &Params::calibration, "some §1");
  const auto spec = fields.schema()[0];
  CHECK(spec.name == "calibration");
  CHECK(spec.type == dpb::alg::ParamType::choice);
  CHECK(std::get<std::string>(spec.default_value) == "analytic");
  CHECK(spec.choices == std::vector<std::string>{"analytic", "classical"});
  CHECK(spec.spec_ref == "some §1");

  // Classical: Delta sqrt(2 log(1.25/delta)) / eps = 3 sqrt(2 log 125) / 0.5 = 18.5847...
  CHECK(dpb::alg::gaussian_sigma(GaussianCalibration::classical, 3.0, 0.5, 0.01) ==
        Approx(3.0 * std::sqrt(2 * std::log(125.0)) / 0.5).epsilon(1e-14));
  CHECK_THROWS_AS(dpb::alg::gaussian_sigma(GaussianCalibration::classical, 3.0, 1.0, 0.01),
                  dpb::InvalidArgument);
  // Analytic: the sd at which the exact privacy profile delta(eps; sd/Delta) equals delta, below classical.
  const double analytic = dpb::alg::gaussian_sigma(GaussianCalibration::analytic, 3.0, 0.5, 0.01);
  CHECK(dpb::alg::gaussian_delta(analytic / 3.0, 0.5) == Approx(0.01).epsilon(1e-8));
  CHECK(analytic < dpb::alg::gaussian_sigma(GaussianCalibration::classical, 3.0, 0.5, 0.01));
  // It is linear in the sensitivity and defined for eps >= 1 too.
  CHECK(dpb::alg::gaussian_sigma(GaussianCalibration::analytic, 6.0, 0.5, 0.01) == Approx(2 * analytic));
  const double at_four = dpb::alg::gaussian_sigma(GaussianCalibration::analytic, 1.0, 4.0, 1e-5);
  CHECK(dpb::alg::gaussian_delta(at_four, 4.0) == Approx(1e-5).epsilon(1e-8));
}

TEST_CASE("analyze_gauss: PSD-sum sensitivity is attained by rank-one neighbours", "[baselines]") {
  const double T = 2.5;
  CHECK(base::psd_sum_sensitivity(T, Neighbours::add_remove) == T);
  CHECK(base::psd_sum_sensitivity(T, Neighbours::replace) == std::sqrt(2.0) * T);
  // Tight: A = T e1 e1^T and A' = T e2 e2^T (both PSD, trace T) give ||A' - A||_F = sqrt(2) T, and removing A
  // moves the sum by ||A||_F = T.
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(3, 3), A2 = Eigen::MatrixXd::Zero(3, 3);
  A(0, 0) = T, A2(1, 1) = T;
  CHECK((A2 - A).norm() == Approx(base::psd_sum_sensitivity(T, Neighbours::replace)).epsilon(1e-15));
  CHECK(A.norm() == base::psd_sum_sensitivity(T, Neighbours::add_remove));
}

TEST_CASE("analyze_gauss: achieved epsilon inverts the analytic calibration", "[baselines]") {
  const double sd = dpb::alg::analytic_gaussian_sigma(2.0, 0.7, 1e-3);
  CHECK(base::achieved_epsilon(sd, 2.0, 1e-3) == Approx(0.7).epsilon(1e-8));
  // Only sd / sensitivity matters; a sqrt(2) larger sensitivity costs more eps.
  CHECK(base::achieved_epsilon(3 * sd, 6.0, 1e-3) == Approx(0.7).epsilon(1e-8));
  const double larger = base::achieved_epsilon(sd, 2.0 * std::sqrt(2.0), 1e-3);
  CHECK(larger == Approx(dpb::alg::gaussian_epsilon(sd / (2.0 * std::sqrt(2.0)), 1e-3)).epsilon(1e-12));
  CHECK(larger > 0.9);
}

TEST_CASE("analyze_gauss: noiseless known answer, noise is symmetric_gaussian from the same stream",
          "[baselines]") {
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(3, 3);
  S.diagonal() << 1, 5, 3;
  dpb::core::Rng rng(3, 0);
  dpb::alg::Ledger ledger;
  const Privacy budget{0.5, 1e-3, Neighbours::replace};
  const auto noiseless = dpb::alg::gaussian_entry("exact", 1.0, 0.0, budget);
  const auto exact = base::analyze_gauss(S, 2, noiseless, ledger, rng);
  CHECK(exact.values.isApprox(Eigen::Vector2d(5, 3), 1e-14));
  CHECK(exact.vectors.col(0).cwiseAbs().isApprox(Eigen::Vector3d(0, 1, 0), 1e-14));
  CHECK(exact.vectors.col(1).cwiseAbs().isApprox(Eigen::Vector3d(0, 0, 1), 1e-14));

  dpb::core::Rng a(4, 1), b(4, 1), c(4, 1);
  const Eigen::MatrixXd expected = S + dpb::core::symmetric_gaussian(a, 3, 0.3);
  const auto release = dpb::alg::gaussian_entry("release", 2.0, 0.3, budget);
  CHECK(base::analyze_gauss_release(S, release, ledger, b) == expected);
  const auto pairs = base::analyze_gauss(S, 2, release, ledger, c);
  const auto top = dpb::core::top_eigenpairs(expected, 2);
  CHECK(pairs.values == top.values);
  CHECK(pairs.vectors == top.vectors);
  // Every release is in the ledger: the noiseless one, then the two equal ones merged.
  REQUIRE(ledger.entries().size() == 2);
  CHECK(ledger.entries()[0].noise_scale == 0);
  CHECK(ledger.entries()[1].step == "release");
  CHECK(ledger.entries()[1].uses == 2);
  CHECK(ledger.entries()[1].sensitivity == 2.0);
  CHECK(ledger.entries()[1].noise_scale == 0.3);
  CHECK(ledger.entries()[1].calibrated_for.epsilon == 0.5);
  CHECK(ledger.entries()[1].calibrated_for.delta == 1e-3);
}

TEST_CASE("analyze_gauss_release noise has the requested spread and is symmetric", "[baselines]") {
  const Eigen::MatrixXd S = Eigen::MatrixXd::Identity(30, 30) * 3.0;
  dpb::core::Rng rng(11, 0);
  dpb::alg::Ledger ledger;
  const auto release = dpb::alg::gaussian_entry("release", 1.0, 0.7, Privacy{1.0, 1e-5});
  std::vector<double> upper;
  for (int draw = 0; draw < 20; ++draw) {
    const Eigen::MatrixXd R = base::analyze_gauss_release(S, release, ledger, rng);
    REQUIRE(R == R.transpose());
    for (Eigen::Index j = 0; j < 30; ++j)
      for (Eigen::Index i = 0; i <= j; ++i) upper.push_back(R(i, j) - S(i, j));
  }
  // 9300 iid N(0, 0.49) entries: relative sd of the sample variance sqrt(2/9299) = 0.0147; 4 sigma = 0.06.
  CHECK(dpb::test::variance(upper) / 0.49 == Approx(1.0).margin(0.06));
  REQUIRE(ledger.entries().size() == 1);
  CHECK(ledger.entries()[0].uses == 20);
}

TEST_CASE("analyze_gauss: privacy, rank and oracle checks name the owner and what is allowed", "[baselines]") {
  CHECK_NOTHROW(base::require_gaussian_privacy({1.0, 1e-9}, "own"));
  CHECK_THROWS_WITH(base::require_gaussian_privacy({1.0, 0.0}, "own"),
                    "own: the Gaussian mechanism needs delta in (0, 1), got delta = 0");
  CHECK_THROWS_WITH(base::require_gaussian_privacy({1.0, 1.0}, "own"), "own: delta must lie in [0, 1), got 1");
  CHECK_THROWS_WITH(base::require_gaussian_privacy({0.0, 0.1}, "own"),
                    "own: epsilon must be a finite number > 0, got 0");

  CHECK_NOTHROW(base::require_rank(1, 4, "own", "k <= d"));
  CHECK_NOTHROW(base::require_rank(4, 4, "own", "k <= d"));
  CHECK_THROWS_WITH(base::require_rank(0, 4, "own", "k <= d"), "own: need 1 <= k <= 4 (k <= d), got k = 0");
  CHECK_THROWS_WITH(base::require_rank(5, 4, "own", "k <= d"), "own: need 1 <= k <= 4 (k <= d), got k = 5");

  dpb::core::ModelInfo info;
  info.params = {{"lambda1", 7.5}};
  dpb::alg::Input in;
  CHECK_THROWS_WITH(base::oracle_value(in, "lambda1", "own", "beta"),
                    "own: needs the population quantity 'lambda1' from the model oracle, which is absent; "
                    "on data without an oracle give beta");
  in.oracle = &info;
  CHECK(base::oracle_value(in, "lambda1", "own", "beta") == 7.5);
  CHECK_THROWS_WITH(base::oracle_value(in, "sigma2", "own", "beta"),
                    Catch::Contains("'sigma2'") && Catch::Contains("missing it") && Catch::EndsWith("give beta"));
}

TEST_CASE("analyze_gauss: a release claims (eps, delta) unless its noise is short of the true sensitivity",
          "[baselines]") {
  const Privacy privacy{0.8, 1e-4, Neighbours::replace};
  const double sd = dpb::alg::gaussian_sigma(dpb::alg::GaussianCalibration::analytic, 1.0, 0.8, 1e-4);
  const auto exact = base::gaussian_release_claim(privacy, sd, 1.0, {"given"});
  CHECK(exact.epsilon == 0.8);
  CHECK(exact.delta == 1e-4);
  CHECK(exact.neighbours == Neighbours::replace);
  CHECK(exact.scope == ClaimScope::worst_case);
  CHECK(exact.conditions == std::vector<std::string>{"given"});
  // More noise than needed: the requested eps stands (the claim is conservative, never below eps).
  CHECK(base::gaussian_release_claim(privacy, sd, 0.5, {}).epsilon == 0.8);
  // Noise for sensitivity 1 on a true sensitivity sqrt(2): the exactly achieved eps, and a condition why.
  const auto short_of = base::gaussian_release_claim(privacy, sd, std::sqrt(2.0), {"given"});
  CHECK(short_of.epsilon == Approx(dpb::alg::gaussian_epsilon(sd / std::sqrt(2.0), 1e-4)).epsilon(1e-12));
  CHECK(short_of.epsilon > 1.1);
  CHECK(short_of.scope == ClaimScope::worst_case);
  REQUIRE(short_of.conditions.size() == 2);
  CHECK(short_of.conditions[0] == "given");
  CHECK_THAT(short_of.conditions[1], Catch::Contains("too small for replace") && Catch::Contains("0.8"));

  const auto none = base::not_private_claim({2.0, 0.5, Neighbours::add_remove}, {"why"});
  CHECK(none.scope == ClaimScope::not_private);
  CHECK(none.epsilon == 2.0);
  CHECK(none.delta == 0.5);
  CHECK(none.neighbours == Neighbours::add_remove);
  CHECK(none.conditions == std::vector<std::string>{"why"});
}
