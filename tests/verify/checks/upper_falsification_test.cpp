#include "verify/checks/upper_falsification.hpp"

#include <catch2/catch.hpp>

#include "tests/verify/checks/synthetic.hpp"

using dpb::verify::VerdictStatus;

namespace {

// "With probability 1 - zeta the statistic is <= 1/2" (liu2022 Theorem 6.1's shape), zeta = 0.01.
dpb::bounds::Theorem containment() {
  auto t = dpb::test::power_rate_theorem("U", dpb::bounds::Kind::upper, 0);
  t.semantics = {true, 0.01};
  t.explicit_value = [](const dpb::bounds::Params&) { return 0.5; };
  return t;
}

dpb::verify::CheckSpec upper_falsification_spec() {
  return dpb::test::check_spec("falsification", "U", "alg", "stat", "");
}

// 40 trials per cell, of which the first `above` in each cell read 0.9 (> 1/2) and the rest 0.1.
dpb::verify::ResultSet with_violations(std::size_t above) {
  dpb::verify::ResultSet r;
  dpb::test::add_trials(r, "alg", "stat", {100, 1000}, 40,
                        [above](double, std::size_t trial) { return trial < above ? 0.9 : 0.1; });
  return r;
}

}  // namespace

TEST_CASE("upper falsification: no violation passes, many fail, a few are inconclusive",
          "[checks][falsification]") {
  const auto t = containment();
  const auto pass =
      dpb::verify::check_upper_falsification(with_violations(0), upper_falsification_spec(), t, 1, {});
  CHECK(pass.status == VerdictStatus::pass);
  CHECK(pass.statistic.rfind("violation count", 0) == 0);
  // 6 of 40: the exact one-sided Clopper-Pearson lower bound at 1 - 0.05/2 is about 0.05 > zeta = 0.01.
  const auto fail =
      dpb::verify::check_upper_falsification(with_violations(6), upper_falsification_spec(), t, 1, {});
  CHECK(fail.status == VerdictStatus::fail);
  CHECK(double(fail.figures["cells"][0]["violation_lower_bound"]) > 0.01);
  CHECK(int(fail.figures["cells"][0]["violations"]) == 6);
  // 1 of 40 is above zeta's share (0.4 trials) but P(>= 1 | p = 0.01) = 0.33: not significant.
  const auto unsure =
      dpb::verify::check_upper_falsification(with_violations(1), upper_falsification_spec(), t, 1, {});
  CHECK(unsure.status == VerdictStatus::inconclusive);
}

TEST_CASE("upper falsification: a trial that released nothing violates the guarantee", "[checks][falsification]") {
  auto results = with_violations(0);
  for (std::size_t i = 0; i < 6; ++i) {
    results.rows[i].metrics.clear();
    results.rows[i].error = "BOTTOM";
  }
  const auto v =
      dpb::verify::check_upper_falsification(results, upper_falsification_spec(), containment(), 1, {});
  CHECK(v.status == VerdictStatus::fail);
  CHECK(int(v.figures["cells"][0]["failed"]) == 6);
  CHECK(int(v.figures["cells"][0]["above_bound"]) == 0);
}

TEST_CASE("upper falsification: an expectation bound compares the mean", "[checks][falsification]") {
  auto t = containment();
  t.semantics = {false, 0};
  // 6 of 40 at 0.9, the rest 0.1: mean 0.22 <= 1/2 passes, although 6 trials exceed it.
  CHECK(dpb::verify::check_upper_falsification(with_violations(6), upper_falsification_spec(), t, 1, {})
            .status == VerdictStatus::pass);
  // 30 of 40: mean 0.7, far above with a tight CI (a two-point sample).
  const auto fail =
      dpb::verify::check_upper_falsification(with_violations(30), upper_falsification_spec(), t, 1, {});
  CHECK(fail.status == VerdictStatus::fail);
  CHECK(fail.statistic.rfind("mean", 0) == 0);
}

TEST_CASE("upper falsification needs an explicit value", "[checks][falsification]") {
  auto t = containment();
  t.explicit_value.reset();
  CHECK_THROWS_WITH(
      dpb::verify::check_upper_falsification(with_violations(0), upper_falsification_spec(), t, 1, {}),
      Catch::Contains("no explicit value"));
}

TEST_CASE("upper falsification: a containment's floor counts values below it as violations",
          "[checks][falsification]") {
  // dugler2026 Theorem 5's shape: Lhat / Lambda(Q) in [1, 2^{3/2}] with probability 1 - zeta.
  auto t = containment();
  t.explicit_value = [](const dpb::bounds::Params&) { return 2.83; };
  t.explicit_floor = [](const dpb::bounds::Params&) { return 1.0; };
  const auto ratios = [](std::size_t below) {
    dpb::verify::ResultSet r;
    dpb::test::add_trials(r, "alg", "stat", {100, 1000}, 40,
                          [below](double, std::size_t trial) { return trial < below ? 0.7 : 2.0; });
    return r;
  };
  // Values of 0.7 lie under the one-sided bound, so without the floor six of them pass unseen.
  const auto fail = dpb::verify::check_upper_falsification(ratios(6), upper_falsification_spec(), t, 1, {});
  CHECK(fail.status == VerdictStatus::fail);
  CHECK(int(fail.figures["cells"][0]["below_floor"]) == 6);
  CHECK(int(fail.figures["cells"][0]["above_bound"]) == 0);
  CHECK(double(fail.figures["cells"][0]["smallest"]) == 0.7);
  CHECK_THAT(fail.summary, Catch::Contains("value < 1: 6"));
  CHECK(dpb::verify::check_upper_falsification(ratios(0), upper_falsification_spec(), t, 1, {}).status ==
        VerdictStatus::pass);
  // A floor that reads a parameter the cells lack: inconclusive with the reason, not an escaped exception.
  t.explicit_floor = [](const dpb::bounds::Params& p) { return dpb::bounds::param(p, "C_floor"); };
  CHECK_THROWS_WITH(
      dpb::verify::check_upper_falsification(ratios(0), upper_falsification_spec(), t, 1, {}),
      Catch::Contains("explicit floor of U cannot be evaluated at cell 0") && Catch::Contains("C_floor"));
  t.explicit_floor.reset();
  CHECK(dpb::verify::check_upper_falsification(ratios(6), upper_falsification_spec(), t, 1, {}).status ==
        VerdictStatus::pass);
}

TEST_CASE("upper falsification: an expectation containment fails when the mean lies below its floor",
          "[checks][falsification]") {
  auto t = containment();
  t.semantics = {false, 0};
  t.explicit_value = [](const dpb::bounds::Params&) { return 2.83; };
  t.explicit_floor = [](const dpb::bounds::Params&) { return 1.0; };
  dpb::verify::ResultSet low;
  dpb::test::add_trials(low, "alg", "stat", {100, 1000}, 40,
                        [](double, std::size_t trial) { return trial % 2 ? 0.5 : 0.6; });
  const auto v = dpb::verify::check_upper_falsification(low, upper_falsification_spec(), t, 1, {});
  CHECK(v.status == VerdictStatus::fail);
  CHECK_THAT(v.summary, Catch::Contains("containment [1, 2.83]"));
}
