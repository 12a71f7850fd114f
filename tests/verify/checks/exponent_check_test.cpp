#include "verify/checks/exponent_check.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "tests/verify/checks/synthetic.hpp"
#include "verify/checks/run_checks.hpp"

using dpb::verify::CheckSpec;
using dpb::verify::VerdictStatus;

namespace {

// n over two decades, 30 trials per cell with a uniform +-20% factor: the cell means are within about
// 0.2/sqrt(3)/sqrt(30) = 2% of c n^-a, so the fitted slope's CI is about +-0.02 wide, far inside a band
// of +-0.1 around the true exponent and far outside one around an exponent 0.5 away.
const std::vector<double> kNs = {100, 1000, 10000};
constexpr std::size_t kTrials = 30;

CheckSpec exponent(double s, double tolerance = 0.1) {
  CheckSpec c = dpb::test::check_spec("exponent", "", "A", "sin", "n");
  c.exponent = s;
  c.tolerance = tolerance;
  return c;
}

dpb::verify::ResultSet errors_decaying_as(double a, double spread = 0.2) {
  dpb::verify::ResultSet r;
  r.experiment = std::string("synthetic");
  dpb::test::add_trials(r, "A", "sin", kNs, kTrials, dpb::test::power_law(3, a, spread, 1));
  return r;
}

VerdictStatus verdict(const dpb::verify::ResultSet& results, const CheckSpec& check) {
  return dpb::verify::check_exponent(results, check, 5, {}).status;
}

}  // namespace

TEST_CASE("exponent: PASS when the error follows the stated power law, FAIL when it follows another",
          "[checks][exponent]") {
  const auto one_over_n = errors_decaying_as(1);
  CHECK(verdict(one_over_n, exponent(-1)) == VerdictStatus::pass);
  CHECK(verdict(one_over_n, exponent(-0.5)) == VerdictStatus::fail);
  const auto v = dpb::verify::check_exponent(one_over_n, exponent(-1), 5, {});
  CHECK(v.check.kind == "exponent");
  CHECK(v.figures.at("observed_slope").get<double>() == Approx(-1).margin(0.03));
  CHECK(v.figures.at("predicted_slope").get<double>() == Approx(-1).margin(1e-12));
  // A plateau (exponent 0) is told apart from a decay.
  const auto flat = errors_decaying_as(0);
  CHECK(verdict(flat, exponent(0)) == VerdictStatus::pass);
  CHECK(verdict(flat, exponent(1)) == VerdictStatus::fail);
}

TEST_CASE("exponent: one side allows any slope beyond it", "[checks][exponent]") {
  // Against s = -1/2: a slope of -1 is below s (at_most passes, at_least fails), a slope of 0 above it.
  const auto one_over_n = errors_decaying_as(1);
  auto at_most = exponent(-0.5), at_least = exponent(-0.5);
  at_most.side = "at_most";
  at_least.side = "at_least";
  CHECK(verdict(one_over_n, at_most) == VerdictStatus::pass);
  CHECK(verdict(one_over_n, at_least) == VerdictStatus::fail);
  const auto flat = errors_decaying_as(0);
  CHECK(verdict(flat, at_most) == VerdictStatus::fail);
  CHECK(verdict(flat, at_least) == VerdictStatus::pass);
}

TEST_CASE("exponent: data on the band's edge is INCONCLUSIVE", "[checks][exponent]") {
  // +-90% noise on 30 trials: the slope's CI is about +-0.06 around the true -0.5, which is the upper end
  // of the band [-0.6, -0.5], so the CI straddles it.
  CHECK(verdict(errors_decaying_as(0.5, 0.9), exponent(-0.55, 0.05)) == VerdictStatus::inconclusive);
}

TEST_CASE("exponent: through run_checks it needs no theorem, and a missing vary is a malformed spec",
          "[checks][exponent]") {
  const auto verdicts = dpb::verify::run_checks(errors_decaying_as(0.5), {exponent(-0.5)}, 5, {});
  REQUIRE(verdicts.size() == 1);
  CHECK(verdicts[0].status == VerdictStatus::pass);
  auto no_vary = exponent(-0.5);
  no_vary.vary.clear();
  CHECK_THROWS_AS(dpb::verify::run_checks(errors_decaying_as(0.5), {no_vary}, 5, {}), dpb::InvalidArgument);
  auto bad_side = exponent(-0.5);
  bad_side.side = "above";
  CHECK_THROWS_AS(dpb::verify::run_checks(errors_decaying_as(0.5), {bad_side}, 5, {}), dpb::InvalidArgument);
  // Too few swept values for a slope: INCONCLUSIVE, not an error.
  dpb::verify::ResultSet two_cells;
  two_cells.experiment = std::string("synthetic");
  dpb::test::add_trials(two_cells, "A", "sin", {100, 1000}, kTrials, dpb::test::power_law(3, 0.5, 0.2, 1));
  CHECK(dpb::verify::run_checks(two_cells, {exponent(-0.5)}, 5, {})[0].status == VerdictStatus::inconclusive);
}
