#include "algorithms/mechanisms/composition.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/errors.hpp"

using namespace dpb::alg;

TEST_CASE("basic composition sums eps and delta", "[mechanisms]") {
  const std::vector<Budget> steps{{0.5, 1e-6}, {0.25, 2e-6}, {1.0, 0.0}};
  const Budget total = basic_composition(steps);
  CHECK(total.epsilon == 1.75);
  CHECK(total.delta == Approx(3e-6).epsilon(1e-15));
  const Budget none = basic_composition({});
  CHECK(none.epsilon == 0);
  CHECK(none.delta == 0);
  CHECK_THROWS_AS(basic_composition(std::vector<Budget>{{0.5, 1e-6}, {-0.1, 0}}), dpb::InvalidArgument);
  CHECK_THROWS_AS(basic_composition(std::vector<Budget>{{0.5, 1.0}}), dpb::InvalidArgument);
}

TEST_CASE("advanced composition is kumar2025 Lemma 1", "[mechanisms]") {
  // By hand, k = 10 steps of (0.1, 1e-6), delta0 = 1e-5:
  //   sqrt(2 * 10 * log(1e5)) * 0.1 = sqrt(230.2585) * 0.1 = 1.5174271
  //   10 * 0.1 * (e^0.1 - 1)                                = 0.1051709
  //   eps* = 1.6225980,  delta* = 10 * 1e-6 + 1e-5 = 2e-5.
  const Budget total = advanced_composition({0.1, 1e-6}, 10, 1e-5);
  CHECK(total.epsilon == Approx(1.6225980474607942).epsilon(1e-13));
  CHECK(total.delta == Approx(2e-5).epsilon(1e-14));
  // k = 1, a pure step, delta0 = 1/2: sqrt(2 log 2) * 1 + (e - 1) = 1.1774100 + 1.7182818.
  const Budget one = advanced_composition({1.0, 0.0}, 1, 0.5);
  CHECK(one.epsilon == Approx(1.1774100225154747 + 1.718281828459045).epsilon(1e-14));
  CHECK(one.delta == 0.5);
  CHECK_THROWS_AS(advanced_composition({0.1, 1e-6}, 0, 1e-5), dpb::InvalidArgument);
  CHECK_THROWS_AS(advanced_composition({0.1, 1e-6}, 10, 0.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(advanced_composition({0.1, 1e-6}, 10, 1.0), dpb::InvalidArgument);
  CHECK_THROWS_AS(advanced_composition({0.0, 1e-6}, 10, 1e-5), dpb::InvalidArgument);
}

TEST_CASE("liu2022 Lemma B.4 per-step budget", "[mechanisms]") {
  // By hand, total (0.5, 1e-5), k = 100: eps0 = 0.5 / (2 sqrt(200 log(2e5))) = 0.5 / (2 * 49.40864)
  // = 0.0050598429, delta0 = 1e-5 / 200 = 5e-8.
  const Budget step = advanced_composition_step_budget({0.5, 1e-5}, 100);
  CHECK(step.epsilon == Approx(0.005059842932064512).epsilon(1e-13));
  CHECK(step.delta == Approx(5e-8).epsilon(1e-15));
  CHECK_THROWS_AS(advanced_composition_step_budget({0.91, 1e-5}, 100),
                  dpb::InvalidArgument);  // needs eps <= 0.9
  CHECK_NOTHROW(advanced_composition_step_budget({0.9, 1e-5}, 100));
  CHECK_THROWS_AS(advanced_composition_step_budget({0.5, 0.0}, 100), dpb::InvalidArgument);
  CHECK_THROWS_AS(advanced_composition_step_budget({0.5, 1e-5}, 0), dpb::InvalidArgument);
}

TEST_CASE("Lemma B.4 composes back to within (eps, delta) through the DRV bound", "[mechanisms]") {
  // liu2022 §3.1: with delta' = delta/2, the DRV bound eps0 sqrt(2k log(2/delta)) + k eps0 (e^eps0 - 1)
  // has first term exactly eps/2 and second term <= eps/2 whenever eps <= 0.9; the deltas add up to
  // k delta/(2k) + delta/2 = delta.
  for (double eps : {0.001, 0.1, 0.5, 0.9})
    for (double delta : {1e-12, 1e-5, 0.1, 0.9})
      for (std::int64_t k : {1, 2, 10, 1000, 1'000'000}) {
        CAPTURE(eps, delta, k);
        const Budget step = advanced_composition_step_budget({eps, delta}, k);
        const Budget total = advanced_composition(step, k, delta / 2);
        CHECK(step.epsilon * std::sqrt(2.0 * static_cast<double>(k) * std::log(2 / delta)) == Approx(eps / 2).epsilon(1e-14));
        CHECK(total.epsilon <= eps);
        CHECK(total.delta == Approx(delta).epsilon(1e-14));
      }
}
