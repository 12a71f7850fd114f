// `dpbounds reproduce liu2022|dugler2026 --scale quick`: every figure runs and every claim gets a verdict.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/cli/reproduce_fixture.hpp"
#include "verify/reproduce.hpp"
#include "verify/runner/verdict_table.hpp"

namespace fs = std::filesystem;

namespace {

// Runs `paper` at the quick scale and checks that each figure wrote its report and each of its checks
// printed one verdict line under its own description. Returns the reproduction's checks.
std::vector<dpb::verify::CheckSpec> reproduce_quick(const std::string& paper) {
  const fs::path out = fs::temp_directory_path() / ("dpb_reproduce_" + paper + "_" + std::to_string(::getpid()));
  const auto r = dpb::test::reproduce(paper + " --scale quick --threads 2 --out '" + out.string() + "'");
  INFO(r.out << r.err);
  // Exit 0 or 1: at the quick scale a claim may FAIL or be INCONCLUSIVE (few trials, small n); what must
  // hold is that every figure ran and every claim got a verdict.
  CHECK((r.code == 0 || r.code == 1));
  const fs::path papers = dpb::test::repository_root() / "configs" / "papers";
  for (const auto& figure : dpb::verify::paper_figures(papers, paper))
    CHECK(fs::exists(out / ("reproduce-" + paper + "-quick") / (paper + "-" + figure) / "summary.md"));
  const auto spec = dpb::verify::load_reproduction(papers, paper, dpb::verify::Scale::quick);
  std::vector<dpb::verify::CheckSpec> checks;
  for (const auto& e : spec.experiments)
    for (const auto& c : e.checks) {
      CHECK_THAT(r.out, Catch::Contains(dpb::verify::describe_check(c) + "\n"));
      checks.push_back(c);
    }
  CHECK(dpb::test::verdict_lines(r.out) == static_cast<long>(checks.size()));
  CHECK_THAT(r.out, Catch::Contains(std::to_string(checks.size()) + " claims and rates: "));
  fs::remove_all(out);
  return checks;
}

std::size_t count_kind(const std::vector<dpb::verify::CheckSpec>& checks, const std::string& kind) {
  std::size_t count = 0;
  for (const auto& c : checks) count += c.kind == kind;
  return count;
}

}  // namespace

TEST_CASE("reproduce liu2022 --scale quick: the n, eps, d scalings, Example 4.1 and Figure 1 each get a verdict",
          "[cli][reproduce]") {
  const auto checks = reproduce_quick("liu2022");
  // n, eps, d: one power law each; Example 4.1: DP-PCA's sin / sigma bounded, Private Oja's not;
  // Figure 1: the gradients' range / mean ratio on Gaussian and on Example 4.1 data.
  CHECK(count_kind(checks, "exponent") == 7);
}

TEST_CASE("reproduce dugler2026 --scale quick: every figure's comparison claims get a verdict", "[cli][reproduce]") {
  const auto checks = reproduce_quick("dugler2026");
  // Figures 1a (three sweeps), 1b and 3: ADADPO against each of five baselines; Figure 2: one claim.
  CHECK(count_kind(checks, "dominates") == 5 * 5 + 1);
}
