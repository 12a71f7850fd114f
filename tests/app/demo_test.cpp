#include "app/demo.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "algorithms/mechanisms/gaussian.hpp"
#include "core/errors.hpp"

using dpb::app::DemoOptions;

namespace {
DemoOptions small_demo() {
  DemoOptions o;
  o.d = 8;
  o.k = 2;
  o.ns = {500, 50000};
  return o;
}
}  // namespace

TEST_CASE("demo is deterministic for a seed and differs between seeds", "[demo]") {
  const auto a = dpb::app::demo_results(small_demo());
  const auto b = dpb::app::demo_results(small_demo());
  REQUIRE(a.rows.size() == 2);
  CHECK(a.rows[0].private_error == b.rows[0].private_error);
  CHECK(a.rows[1].nonprivate_error == b.rows[1].nonprivate_error);
  auto other = small_demo();
  other.seed = 2;
  CHECK(dpb::app::demo_results(other).rows[0].private_error != a.rows[0].private_error);
}

TEST_CASE("demo noise is the analytic Gaussian sigma of the clipped second moment", "[demo]") {
  const auto o = small_demo();
  const auto r = dpb::app::demo_results(o);
  for (const auto& row : r.rows) {
    const double sensitivity = std::sqrt(2.0) * r.clip_radius * r.clip_radius / double(row.n);
    CHECK(row.noise_sigma == Approx(dpb::alg::analytic_gaussian_sigma(sensitivity, 1.0, 1e-5)).epsilon(1e-12));
  }
  CHECK(r.claim.epsilon == 1.0);
  CHECK(r.claim.delta == 1e-5);
  CHECK(r.claim.scope == dpb::alg::ClaimScope::worst_case);
}

TEST_CASE("demo errors shrink with n and the private error approaches the non-private one", "[demo]") {
  const auto r = dpb::app::demo_results(small_demo());
  const auto &small = r.rows[0], &large = r.rows[1];
  // With n = 50000 (100x more data) both errors must fall; the private one by far more, since its
  // noise falls as 1/n while the sampling error falls as 1/sqrt(n).
  CHECK(large.nonprivate_error < small.nonprivate_error);
  CHECK(large.private_error < small.private_error);
  CHECK(large.private_error < 2.0 * large.nonprivate_error);
  CHECK(small.private_error >= small.nonprivate_error * 0.5);
  // The clip radius is 4 sd above the typical norm: almost nothing is clipped.
  CHECK(large.clipped_fraction < 0.02);
}

TEST_CASE("demo rejects invalid options", "[demo]") {
  auto o = small_demo();
  o.privacy.epsilon = 0;
  CHECK_THROWS_AS(dpb::app::demo_results(o), dpb::InvalidArgument);
  o = small_demo();
  o.privacy.delta = 0;
  CHECK_THROWS_AS(dpb::app::demo_results(o), dpb::InvalidArgument);
  o = small_demo();
  o.k = o.d;
  CHECK_THROWS_AS(dpb::app::demo_results(o), dpb::InvalidArgument);
  o = small_demo();
  o.ns = {0};
  CHECK_THROWS_AS(dpb::app::demo_results(o), dpb::InvalidArgument);
}

TEST_CASE("seeds are integers in [0, 2^53]", "[demo]") {
  CHECK(dpb::app::parse_seed("42") == 42u);
  CHECK(dpb::app::parse_seed("0") == 0u);
  CHECK_THROWS_AS(dpb::app::parse_seed("-1"), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::app::parse_seed("1.5"), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::app::parse_seed("1e300"), dpb::InvalidArgument);
  CHECK_THROWS_AS(dpb::app::parse_seed("seven"), dpb::InvalidArgument);
}
