#include "verify/report/write_report.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "tests/verify/checks/synthetic.hpp"
#include "tests/verify/report/report_fixture.hpp"
#include "verify/report/gnuplot.hpp"

namespace fs = std::filesystem;

namespace {

dpb::verify::ReportSpec spec() {
  dpb::verify::ReportSpec r;
  r.tables.emplace_back();
  r.figures.emplace_back();
  r.figures[0].y = std::string("sin");
  return r;
}

std::vector<dpb::verify::Verdict> verdicts() {
  dpb::verify::Verdict v;
  v.check = dpb::test::check_spec("rate", "T", "a", "sin", "n");
  v.status = dpb::verify::VerdictStatus::pass;
  v.summary = std::string("PASS: fine");
  v.figures = {{"slope_log_ratio", 0.01}};
  return {v};
}

bool any_partial(const fs::path& dir) {
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().filename().string().find(".partial") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("write_report writes summary, tables, pgfplots figures and verdicts.json",
          "[report][write_report]") {
  dpb::test::ScratchDir dir("report");
  dpb::verify::write_report(dpb::test::small_results(), spec(), verdicts(), dir.path());
  for (const char* ext : {".md", ".tex", ".csv"})
    CHECK(fs::exists(dir.path() / "tables" / (std::string("sin-n-by-algorithm-mean_ci") + ext)));
  // a at n = 100: 2 ± t(0.975, 2) / sqrt(3) = 2.48 (the 95% interval's half-width); b: 4 ± 0.
  CHECK(dpb::test::slurp(dir.path() / "tables/sin-n-by-algorithm-mean_ci.md")
            .find("| 100 | 2.00 ± 2.48 | 4.00 ± 0.00 |") != std::string::npos);
  const auto tex = dpb::test::slurp(dir.path() / "figures/sin-vs-n-standalone.tex");
  CHECK(tex.find("\\documentclass{standalone}") == 0);
  CHECK(dpb::test::slurp(dir.path() / "figures/sin-vs-n.tex").find("\\begin{tikzpicture}") != std::string::npos);
  CHECK(fs::exists(dir.path() / "figures/sin-vs-n.gp"));
  const auto json = nlohmann::json::parse(dpb::test::slurp(dir.path() / "verdicts.json"));
  CHECK(json["experiment"] == "small");
  CHECK(json["verdicts"][0]["status"] == "PASS");
  CHECK(json["verdicts"][0]["figures"]["slope_log_ratio"] == 0.01);
  const auto summary = dpb::test::slurp(dir.path() / "summary.md");
  CHECK(summary.find("**PASS**") < summary.find("## Tables"));
  CHECK(!any_partial(dir.path()));
  if (dpb::verify::find_program("gnuplot").empty()) {
    WARN("gnuplot is not on PATH: the PNG/SVG assertions are skipped");
  } else {
    CHECK(fs::file_size(dir.path() / "figures/sin-vs-n.png") > 0);
    CHECK(dpb::test::slurp(dir.path() / "figures/sin-vs-n.svg").find("<svg") != std::string::npos);
    CHECK(summary.find("`figures/sin-vs-n.png`") != std::string::npos);
  }
}

TEST_CASE("write_report without gnuplot skips PNG/SVG and says so", "[report][write_report]") {
  dpb::test::ScratchDir dir("report-no-gnuplot");
  dpb::verify::ReportOptions options;
  options.gnuplot = std::string("dpbounds-no-such-gnuplot");
  options.theorems = dpb::verify::TheoremList{};
  dpb::verify::write_report(dpb::test::small_results(), spec(), {}, dir.path(), options);
  CHECK(!fs::exists(dir.path() / "figures/sin-vs-n.png"));
  CHECK(fs::exists(dir.path() / "figures/sin-vs-n.tex"));
  const auto summary = dpb::test::slurp(dir.path() / "summary.md");
  CHECK(summary.find("PNG/SVG skipped") != std::string::npos);
  CHECK(summary.find("No checks were configured") != std::string::npos);
}

TEST_CASE("write_report survives a failing gnuplot: a note, and no PNG/SVG or temporary left",
          "[report][write_report]") {
  dpb::test::ScratchDir dir("report-failing-gnuplot");
  dpb::verify::ReportOptions options;
  options.gnuplot = std::string("false");  // exits 1 without drawing
  options.theorems = dpb::verify::TheoremList{};
  dpb::verify::write_report(dpb::test::small_results(), spec(), {}, dir.path(), options);
  CHECK(!fs::exists(dir.path() / "figures/sin-vs-n.png"));
  CHECK(dpb::test::slurp(dir.path() / "summary.md").find("gnuplot failed on sin-vs-n (exit 1)") !=
        std::string::npos);
  CHECK(!any_partial(dir.path()));
}

TEST_CASE("write_report validates the spec before writing anything", "[report][write_report]") {
  dpb::test::ScratchDir dir("report-invalid");
  auto bad = spec();
  bad.tables[0].stat = std::string("mode");
  CHECK_THROWS_AS(dpb::verify::write_report(dpb::test::small_results(), bad, {}, dir.path() / "out"),
                  dpb::InvalidArgument);
  CHECK(!fs::exists(dir.path() / "out"));
}

TEST_CASE("write_report with select: writes selection.md and names the selected candidate in the summary",
          "[report][write_report][selection]") {
  dpb::test::ScratchDir dir("report_select");
  auto with_selection = spec();
  with_selection.selection = dpb::verify::SelectionSpec{"sin"};
  const auto results = dpb::test::small_results();
  dpb::verify::write_report(results, with_selection, verdicts(), dir.path());
  const auto best = dpb::verify::rank_candidates(results, *with_selection.selection).front().algorithm;
  CHECK_THAT(dpb::test::slurp(dir.path() / "selection.md"), Catch::StartsWith("Selected: `" + best + "`"));
  const auto summary = dpb::test::slurp(dir.path() / "summary.md");
  CHECK(summary.find("## Selection") < summary.find("## Tables"));
  dpb::test::ScratchDir plain("report_plain");
  dpb::verify::write_report(results, spec(), verdicts(), plain.path());
  CHECK_FALSE(fs::exists(plain.path() / "selection.md"));
}
