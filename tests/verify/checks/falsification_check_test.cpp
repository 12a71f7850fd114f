#include "verify/checks/falsification_check.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "tests/verify/checks/synthetic.hpp"

using dpb::verify::VerdictStatus;

namespace {

// A lower bound 0.5 / sqrt(n) on (eps, delta)-DP algorithms.
dpb::bounds::Theorem lower_bound() {
  auto t = dpb::test::power_rate_theorem("L", dpb::bounds::Kind::lower, 0.5);
  t.applies = {"(eps,delta)-DP"};
  t.explicit_value = [](const dpb::bounds::Params& p) { return 0.5 / std::sqrt(dpb::bounds::param(p, "n")); };
  return t;
}

dpb::verify::CheckOptions claiming(dpb::alg::ClaimScope scope, double delta = 1e-5) {
  dpb::verify::CheckOptions o;
  o.privacy_claim = [=](const std::string&, const dpb::bounds::Params& cell, std::string&) {
    dpb::alg::PrivacyClaim c;
    c.epsilon = cell.at("epsilon");
    c.delta = delta;
    c.scope = scope;
    return std::optional<dpb::alg::PrivacyClaim>(c);
  };
  return o;
}

dpb::verify::CheckSpec spec() { return dpb::test::check_spec("falsification", "L", "alg", "sin", ""); }

// Errors c / sqrt(n) with ±10% noise over 40 trials: the mean is within ~3% of c / sqrt(n) (see
// rate_check_test), so c = 1 sits far above the bound 0.5 and c = 0.1 far below it.
dpb::verify::ResultSet errors(double c) {
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "sin", {100, 1000, 10000}, 40, dpb::test::power_law(c, 0.5, 0.1, 11));
  return r;
}

}  // namespace

TEST_CASE("falsification: an algorithm above the lower bound passes, one significantly below fails",
          "[checks][falsification]") {
  const auto t = lower_bound();
  const auto opts = claiming(dpb::alg::ClaimScope::worst_case);
  const auto pass = dpb::verify::check_falsification(errors(1.0), spec(), t, 1, opts);
  CHECK(pass.status == VerdictStatus::pass);
  CHECK(double(pass.figures["smallest_ratio"]) == Approx(2).epsilon(0.05));
  CHECK(pass.statistic.rfind("mean:", 0) == 0);
  const auto fail = dpb::verify::check_falsification(errors(0.1), spec(), t, 1, opts);
  CHECK(fail.status == VerdictStatus::fail);
  CHECK(double(fail.figures["cells"][0]["ci"][1]) < double(fail.figures["cells"][0]["lower_bound"]));
}

TEST_CASE("falsification: a mean just below the bound, not significantly, is inconclusive",
          "[checks][falsification]") {
  // Trials alternate 0.5 * (1 ± 0.5) / sqrt(n) and one 0.4 / sqrt(n): the mean sits just below the
  // bound while the CI of the mean (spread ±50%) reaches well above it.
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "sin", {100, 1000, 10000}, 21, [](double n, std::size_t i) {
    const double factor = i == 20 ? 0.4 : (i % 2 ? 0.75 : 0.25);
    return factor / std::sqrt(n);
  });
  const auto v = dpb::verify::check_falsification(r, spec(), lower_bound(), 1,
                                                  claiming(dpb::alg::ClaimScope::worst_case));
  CHECK(v.status == VerdictStatus::inconclusive);
}

TEST_CASE("falsification: algorithms outside the class say nothing about the bound",
          "[checks][falsification]") {
  const auto t = lower_bound();
  CHECK_THROWS_WITH(dpb::verify::check_falsification(errors(0.1), spec(), t, 1,
                                                     claiming(dpb::alg::ClaimScope::not_private)),
                    Catch::Contains("says nothing"));
  auto pure = t;
  pure.applies = {"(eps,0)-DP"};
  CHECK_THROWS_WITH(dpb::verify::check_falsification(errors(0.1), spec(), pure, 1,
                                                     claiming(dpb::alg::ClaimScope::worst_case, 1e-5)),
                    Catch::Contains("outside"));
  auto no_value = t;
  no_value.explicit_value.reset();
  CHECK_THROWS_WITH(dpb::verify::check_falsification(errors(1), spec(), no_value, 1, {}),
                    Catch::Contains("explicit value"));
}

TEST_CASE("falsification: a with-probability bound is compared with the (1 - zeta) quantile, not the mean",
          "[checks][falsification]") {
  // "Pr[error > 0.5/sqrt(n)] > 1/3": 40% of the trials err 0.8/sqrt(n), the rest 0.01/sqrt(n). The bound
  // holds, yet the mean, 0.326/sqrt(n) with standard error ~0.06/sqrt(n) over 60 trials, lies
  // significantly below 0.5/sqrt(n): a mean-based check would report a false FAIL. The 2/3 quantile is
  // 0.8/sqrt(n) (24 of 60 trials above position 39.3), above the bound.
  auto t = lower_bound();
  t.semantics = {true, 1.0 / 3};
  const auto opts = claiming(dpb::alg::ClaimScope::worst_case);
  const auto split = [](double high, double low) {
    return [=](double n, std::size_t i) { return (i % 5 < 2 ? high : low) / std::sqrt(n); };
  };
  dpb::verify::ResultSet holds;
  dpb::test::add_trials(holds, "alg", "sin", {100, 1000, 10000}, 60, split(0.8, 0.01));
  const auto pass = dpb::verify::check_falsification(holds, spec(), t, 1, opts);
  CHECK(pass.status == VerdictStatus::pass);
  CHECK(pass.statistic.rfind("quantile 0.666667", 0) == 0);
  CHECK(double(pass.figures["smallest_ratio"]) == Approx(1.6));
  // Only 20% of the trials above the bound: the quantile falls to 0.01/sqrt(n), significantly below.
  dpb::verify::ResultSet broken;
  dpb::test::add_trials(broken, "alg", "sin", {100, 1000, 10000}, 60,
                        [](double n, std::size_t i) { return (i % 5 == 0 ? 0.8 : 0.01) / std::sqrt(n); });
  CHECK(dpb::verify::check_falsification(broken, spec(), t, 1, opts).status == VerdictStatus::fail);
  // 20 trials < ceil(10 / (1/3)) = 30: the quantile cannot be read, and the mean says nothing.
  dpb::verify::ResultSet few;
  dpb::test::add_trials(few, "alg", "sin", {100, 1000, 10000}, 20, split(0.8, 0.01));
  CHECK_THROWS_WITH(dpb::verify::check_falsification(few, spec(), t, 1, opts),
                    Catch::Contains("bounds a quantile, not the mean"));
}
