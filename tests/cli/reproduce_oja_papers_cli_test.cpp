// `dpbounds reproduce liu2022|dugler2026 --scale quick`: every figure runs and every claim gets a verdict.
#include <catch2/catch.hpp>

#include "tests/cli/reproduce_fixture.hpp"

namespace {

std::size_t count_kind(const std::vector<dpb::verify::CheckSpec>& checks, const std::string& kind) {
  std::size_t count = 0;
  for (const auto& c : checks) count += c.kind == kind;
  return count;
}

}  // namespace

TEST_CASE("reproduce liu2022 --scale quick: the n, eps, d scalings, Example 4.1 and Figure 1 each get a verdict",
          "[cli][reproduce][slow]") {
  const auto checks = dpb::test::reproduce_quick("liu2022");
  // n, eps, d: one power law each; Example 4.1: DP-PCA's sin / sigma bounded, Private Oja's not;
  // Figure 1: the gradients' range / mean ratio on Gaussian and on Example 4.1 data.
  CHECK(count_kind(checks, "exponent") == 7);
}

TEST_CASE("reproduce dugler2026 --scale quick: every figure's comparison claims get a verdict", "[cli][reproduce][slow]") {
  const auto checks = dpb::test::reproduce_quick("dugler2026");
  // Figures 1a (three sweeps), 1b and 3: ADADPO against each of five baselines; Figure 2: one claim.
  CHECK(count_kind(checks, "dominates") == 5 * 5 + 1);
}
