#include "verify/report/summary.hpp"

#include <catch2/catch.hpp>

#include "tests/verify/checks/synthetic.hpp"
#include "tests/verify/report/report_fixture.hpp"

TEST_CASE("summary: verdicts first, then tables, then figures and their notes", "[report][summary]") {
  dpb::verify::Verdict v;
  v.check = dpb::test::check_spec("rate", "T", "a", "sin", "n");
  v.status = dpb::verify::VerdictStatus::fail;
  v.statistic = std::string("mean: why");
  v.summary = std::string("FAIL: slope | 0.3");
  const auto r = dpb::test::small_results();
  dpb::verify::RenderedTable t;
  t.name = std::string("sin-table");
  t.caption = std::string("sin: mean ± sd over trials");
  t.md = std::string("| n | a |\n");
  const dpb::verify::FigureEntry f{"sin-vs-n", {"figures/sin-vs-n.tex"}, {"a note"}};
  const auto s = dpb::verify::summary_markdown(r, {v}, {t}, {f}, "PNG/SVG skipped: no gnuplot");
  CHECK(s.find("# Report: small") == 0);
  CHECK(s.find("12 trials over 2 cells and 2 algorithms; 1 failed") != std::string::npos);
  const auto verdicts = s.find("## Verdicts"), tables = s.find("## Tables"), figures = s.find("## Figures");
  CHECK(verdicts < tables);
  CHECK(tables < figures);
  CHECK(s.find("| 1 | **FAIL** | rate T a sin vs n | mean: why | FAIL: slope \\| 0.3 |") != std::string::npos);
  CHECK(s.find("`tables/sin-table.csv`") != std::string::npos);
  CHECK(s.find("  - a note") != std::string::npos);
  CHECK(s.find("PNG/SVG skipped: no gnuplot") != std::string::npos);
  // Observed: a dominates check rendered as "dominates:  on ... (projector_fro vs )", its names empty.
  CHECK(dpb::verify::describe_check(dpb::test::check_spec("consistency", "U", "", "", "", "L")) ==
        "consistency U vs L");
  auto dominates = dpb::test::check_spec("dominates", "", "ours", "projector_fro", "", "theirs");
  const auto with_dominates = dpb::verify::summary_markdown(r, {dpb::verify::Verdict{dominates, {}, "", "", {}}}, {}, {}, "");
  CHECK_THAT(with_dominates, Catch::Contains("| dominates ours <= theirs on projector_fro |"));
}
