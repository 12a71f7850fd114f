// A check must compare what its theorem speaks about (verify/checks/check_applicability.hpp).
#include <catch2/catch.hpp>

#include "verify/checks/run_checks.hpp"
#include "verify/experiment/experiment_fixture.hpp"

using namespace dpb::verify;

namespace {

std::string with_check(const std::string& check) {
  return std::string(test::kTinyExperiment) + "checks:\n  - " + check + "\n";
}

}  // namespace

TEST_CASE("a rate check needs the theorem's loss and an algorithm it applies to, or an override", "[experiment]") {
  // Observed: baseline.dp_gauss_1 with metric sin against cai2024's projector-Frobenius bound for another
  // algorithm gave PASS with no warning.
  const std::string foreign = "{ theorem: cai2024.thm3.1.q2.expectation, algorithm: baseline.dp_gauss_1, metric: sin, vary: n";
  CHECK_THAT(test::parse_error(with_check(foreign + " }")),
             Catch::Contains("metric 'sin' does not measure cai2024.thm3.1.q2.expectation's loss") &&
                 Catch::Contains("measured by projector_fro") && Catch::Contains("override"));
  const std::string other_algorithm = "{ theorem: liu2022.eq3, algorithm: baseline.nonprivate_pca, metric: sin, vary: n";
  CHECK_THAT(test::parse_error(with_check(other_algorithm + " }")),
             Catch::Contains("liu2022.eq3 is an upper bound for baseline.dp_gauss_1") &&
                 Catch::Contains("not for baseline.nonprivate_pca"));
  // The matching check parses; sin and projector_op measure the same loss.
  CHECK(test::parse_error(with_check("{ theorem: liu2022.eq3, algorithm: baseline.dp_gauss_1, metric: sin, vary: n }")).empty());
  // An override runs it, and says so in the verdict.
  const auto spec = test::parse_text(with_check(other_algorithm + ", override: 'a reference curve' }"));
  REQUIRE(spec.checks.size() == 1);
  CHECK(spec.checks[0].override_reason == "a reference curve");
  const auto verdicts = run_checks(ResultSet{"tiny", "h", {}}, spec.checks, 1);
  REQUIRE(verdicts.size() == 1);
  CHECK_THAT(verdicts[0].summary, Catch::StartsWith("[override: a reference curve] INCONCLUSIVE"));
  // An override on a check that matches is a mistake.
  CHECK_THAT(test::parse_error(with_check(
                 "{ theorem: liu2022.eq3, algorithm: baseline.dp_gauss_1, metric: sin, vary: n, override: x }")),
             Catch::Contains("remove it"));
}

TEST_CASE("a check's note: is read for every kind of check", "[experiment][checks]") {
  const auto spec = dpb::verify::test::parse_text(std::string(dpb::verify::test::kTinyExperiment) +
                                                  "checks:\n"
                                                  "  - { kind: dominates, algorithm: baseline.nonprivate_pca, against: "
                                                  "baseline.dp_gauss_1, metric: sin, note: \"why it may fail\" }\n");
  REQUIRE(spec.checks.size() == 1);
  CHECK(spec.checks[0].note == "why it may fail");
}

TEST_CASE("a report table takes every statistic a table can show", "[experiment][report]") {
  for (const char* stat : {"mean_ci", "mean_sd", "median_iqr"}) {
    const auto spec = dpb::verify::test::parse_text(std::string(dpb::verify::test::kTinyExperiment) +
                                                    "report:\n  table: { rows: n, columns: algorithm, stat: " + stat +
                                                    " }\n");
    REQUIRE(spec.report.tables.size() == 1);
    CHECK(spec.report.tables[0].stat == stat);
  }
}

TEST_CASE("a report figure's style: boxplot, which draws no reference line", "[experiment][report]") {
  const std::string base = std::string(dpb::verify::test::kTinyExperiment) + "report:\n  figure: { x: n, y: sin, ";
  CHECK(dpb::verify::test::parse_text(base + "style: boxplot }\n").report.figures.at(0).boxplot);
  CHECK_FALSE(dpb::verify::test::parse_text(base + "style: lines }\n").report.figures.at(0).boxplot);
  CHECK_THROWS_WITH(dpb::verify::test::parse_text(base + "style: boxplot, theorem: liu2022.eq3 }\n"),
                    Catch::Contains("a boxplot draws no reference line"));
}
