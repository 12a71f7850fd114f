// The bench draws a trial's data once per model and size and shares it between the cases run there; each case
// must still run at its own budget (bench/support/cases.cpp, privacy()). The cache once handed every case the
// budget of the first case at its model and size: kumar2025.exp_mech_support, pure eps-DP, then refused the
// delta = 1e-5 of kumar2025.priv_cov at every size, so the bench had no row for it.
#include <catch2/catch.hpp>

#include "bench/support/cases.hpp"
#include "bench/support/prepared_trial.hpp"
#include "core/errors.hpp"

using namespace dpb;
using namespace dpb::bench;

TEST_CASE("the bench's shared trial data carries each case's own budget", "[bench]") {
  // Every case in registry order, as the bench registers them, at one small size per family.
  int checked = 0, budgets_differ = 0;
  alg::Privacy previous{};
  for (const AlgorithmCase& c : algorithm_cases()) {
    const Size size = c.family == Family::covariance ? Size{1000, 50, 3} : Size{10000, 50, 1};
    const alg::Privacy want = privacy(c, size);
    const PreparedTrial* trial = nullptr;
    try {
      trial = &prepared_trial(c, size);
    } catch (const InvalidArgument&) {
      continue;  // the model or algorithm refuses this size; the bench reports it as an error row
    }
    INFO(c.id);
    CHECK(trial->input.privacy.epsilon == want.epsilon);
    CHECK(trial->input.privacy.delta == want.delta);
    budgets_differ += checked > 0 && (want.epsilon != previous.epsilon || want.delta != previous.delta);
    previous = want;
    ++checked;
  }
  CHECK(checked > 20);
  CHECK(budgets_differ > 0);  // the check above would hold of a cache that ignored the budget otherwise
}
