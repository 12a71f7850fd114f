#include "algorithms/covariance/spiked_inputs.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/covariance/spiked_fixture.hpp"
#include "core/errors.hpp"

using Catch::Matchers::Contains;

TEST_CASE("cai2024 plumbing: noise calibration, model quantities, the model-assumption claim", "[cai2024]") {
  using dpb::alg::GaussianCalibration;
  // Classical at (eps/2, delta/2): variance 8 Delta^2 log(2.5/delta)/eps^2 (spec: cai2024 §2.2).
  const auto release = dpb::alg::spiked_release("x", 0.3, {0.5, 0.05}, GaussianCalibration::classical, "t");
  const double sd = release.noise_scale;
  CHECK(sd * sd == Approx(8 * 0.09 * std::log(2.5 / 0.1) / 1.0).epsilon(1e-12));
  // The ledger entry: Gaussian, the given sensitivity, calibrated for the given budget, replace-one.
  CHECK(release.step == "x");
  CHECK(release.mechanism == dpb::alg::Mechanism::gaussian);
  CHECK(release.sensitivity == 0.3);
  CHECK(release.calibrated_for.epsilon == 0.5);
  CHECK(release.calibrated_for.delta == 0.05);
  CHECK(release.neighbours == dpb::alg::Neighbours::replace);
  CHECK_THROWS_WITH(dpb::alg::spiked_release("x", 0.3, {1.0, 0.05}, GaussianCalibration::classical, "t"),
                    Contains("calibration=analytic"));
  CHECK(dpb::alg::spiked_release("x", 0.3, {1.0, 0.05}, GaussianCalibration::analytic, "t").noise_scale > 0);

  const auto data = dpb::test::spiked_data(50, 10, 2, 7.0, 1.5, 1);
  auto in = data.input(1.0, 0.1);
  CHECK(dpb::alg::model_quantity(0.0, in, "lambda", "t").value == 7.0);
  CHECK(dpb::alg::model_quantity(0.0, in, "lambda", "t").from_oracle);
  CHECK(dpb::alg::model_quantity(3.0, in, "lambda", "t").value == 3.0);
  CHECK_FALSE(dpb::alg::model_quantity(3.0, in, "lambda", "t").from_oracle);
  in.oracle = nullptr;
  CHECK_THROWS_WITH(dpb::alg::model_quantity(0.0, in, "sigma2", "t"), Contains("'sigma2'"));

  const auto claim = dpb::alg::model_assumption_claim({0.7, 1e-3}, {"extra"});
  CHECK(claim.scope == dpb::alg::ClaimScope::under_model_assumptions);
  CHECK(claim.neighbours == dpb::alg::Neighbours::replace);
  CHECK(claim.epsilon == 0.7);
  CHECK(claim.conditions.back() == "extra");
  CHECK_THAT(dpb::alg::describe(claim), Contains("NO guarantee for an arbitrary replacement"));
  dpb::alg::Diagnostics d;
  dpb::alg::note_model_assumption(d);
  CHECK(d.notes.size() == 1);
}
