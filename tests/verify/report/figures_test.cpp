#include "verify/report/figures.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "bounds/params.hpp"
#include "core/errors.hpp"
#include "tests/verify/report/report_fixture.hpp"

namespace {

dpb::verify::FigureSpec figure(const std::string& theorem) {
  dpb::verify::FigureSpec f;
  f.y = std::string("sin");
  f.theorem = std::string(theorem);
  return f;
}

// Rate 1/n: through the first point (a at n = 100, mean 2) it is 200 / n.
dpb::bounds::Theorem inverse_n() {
  dpb::bounds::Theorem t;
  t.id = std::string("T");  // moved in: see tests/verify/checks/synthetic.hpp
  t.rate = [](const dpb::bounds::Params& p) { return 1 / dpb::bounds::param(p, "n"); };
  return t;
}

}  // namespace

TEST_CASE("figure data: one series per algorithm, means with 2-standard-error bars", "[report][figures]") {
  const auto f = dpb::verify::figure_data(dpb::test::small_results(), figure(""), {});
  CHECK(f.name == "sin-vs-n");
  REQUIRE(f.series.size() == 2);
  CHECK(f.series[0].algorithm == "a");
  REQUIRE(f.series[0].points.size() == 2);
  const auto& p = f.series[0].points[0];  // a at n = 100: mean 2, sd 1, 3 trials
  CHECK(p.x == 100);
  CHECK(p.y == 2);
  CHECK(p.high == Approx(2 + 2 / std::sqrt(3.0)));
  CHECK(p.low == Approx(2 - 2 / std::sqrt(3.0)));
  CHECK(f.reference.empty());
}

TEST_CASE("figure data: the theorem's rate is scaled through the first point", "[report][figures]") {
  const auto t = inverse_n();
  const auto f = dpb::verify::figure_data(dpb::test::small_results(), figure("T"), {&t});
  REQUIRE(f.reference.size() == 2);
  CHECK(f.reference[0].second == Approx(2));
  CHECK(f.reference[1].second == Approx(0.2));
  CHECK(f.reference_label.find("T") != std::string::npos);
  // An unknown theorem leaves the line out with a note.
  const auto unknown = dpb::verify::figure_data(dpb::test::small_results(), figure("U"), {&t});
  CHECK(unknown.reference.empty());
  REQUIRE(unknown.notes.size() == 1);
  CHECK(unknown.notes[0].find("reference line of U omitted") == 0);
}

TEST_CASE("figure data: the reference line passes through the algorithm the theorem bounds", "[report][figures]") {
  // Issue 21: the line was anchored to whichever series came first (baseline.dp_gauss), not the algorithm
  // the theorem is about.
  auto t = inverse_n();
  t.applies = {"b"};
  auto r = dpb::test::small_results();
  for (auto& row : r.rows)
    if (row.algorithm == "b") row.algorithm = "b[C=2]";  // a labelled variant of b is still b
  const auto f = dpb::verify::figure_data(r, figure("T"), {&t});
  REQUIRE(f.reference.size() == 2);
  CHECK(f.reference[0].second == Approx(4));  // b at n = 100
  CHECK(f.reference[1].second == Approx(0.4));
  CHECK(f.reference_label == "rate of T (through b[C=2])");
  CHECK(f.notes.empty());
}

TEST_CASE("figure data: bars never leave a log axis", "[report][figures]") {
  auto r = dpb::test::small_results();
  r.rows[0].metrics["sin"] = -10;   // a at n = 100: -10, 2, 3 -> mean -5/3, off a log axis
  r.rows[3].metrics["sin"] = 0.01;  // a at n = 1000: 0.01, 0.5, 0.8 -> mean - 2 se < 0
  const auto f = dpb::verify::figure_data(r, figure(""), {});
  REQUIRE(f.series[0].points.size() == 1);
  CHECK(f.series[0].points[0].low == f.series[0].points[0].y);
  CHECK(f.notes.size() == 1);
}

TEST_CASE("gnuplot script, and a pgfplots picture a paper can input with a standalone wrapper", "[report][figures]") {
  const auto t = inverse_n();
  const auto f = dpb::verify::figure_data(dpb::test::small_results(), figure("T"), {&t});
  const auto gp = dpb::verify::gnuplot_script(f, "out.png", "out.svg");
  CHECK(gp.find("set logscale x") != std::string::npos);
  CHECK(gp.find("set terminal pngcairo size 900,600 noenhanced") != std::string::npos);  // keeps "_" in ids
  CHECK(gp.find("set output \"out.png\"") != std::string::npos);
  CHECK(gp.find("set output \"out.svg\"") != std::string::npos);
  CHECK(gp.find("with yerrorlines title \"a\"") != std::string::npos);
  CHECK(gp.find("$reference") != std::string::npos);
  // Issue 21: the .tex was a standalone document, which a paper cannot \input.
  const auto tex = dpb::verify::pgfplots_picture(f);
  CHECK(tex.find("\\documentclass") == std::string::npos);
  CHECK(tex.find("% needs \\usepackage{pgfplots}") != std::string::npos);
  CHECK(tex.find("\\begin{tikzpicture}") != std::string::npos);
  // The error bars are said, and the axes end near the data: no empty decades (x from 100 to 1000).
  CHECK(tex.find("error bars 2 standard errors") != std::string::npos);
  CHECK(tex.find("xmin=89.1251, xmax=1122.02") != std::string::npos);
  CHECK(tex.find("\\begin{loglogaxis}") != std::string::npos);
  CHECK(tex.find("\\end{loglogaxis}") != std::string::npos);
  CHECK(tex.find("(100, 2) += (0, ") != std::string::npos);
  CHECK(tex.find("\\addlegendentry{b}") != std::string::npos);
  CHECK(tex.rfind("\\end{tikzpicture}\n") == tex.size() - std::string("\\end{tikzpicture}\n").size());
  const auto standalone = dpb::verify::pgfplots_standalone(f);
  CHECK(standalone.find("\\documentclass{standalone}") == 0);
  CHECK(standalone.find("\\input{sin-vs-n.tex}") != std::string::npos);
  auto linear = figure("");
  linear.log_x = linear.log_y = false;
  CHECK(dpb::verify::pgfplots_picture(dpb::verify::figure_data(dpb::test::small_results(), linear, {}))
            .find("\\begin{axis}") != std::string::npos);
  CHECK_THROWS_AS(dpb::verify::validate(dpb::verify::FigureSpec{}), dpb::InvalidArgument);
}

TEST_CASE("figures: legends and axes show names, not ids", "[report][figures]") {
  // Issue 21: the legend of raw ids took half the PNG and the y label read `projector_fro`.
  const auto f = dpb::verify::figure_data(dpb::test::small_results(), figure(""), {}, {{"a", "Algorithm A"}});
  CHECK(f.series[0].name.text == "Algorithm A");
  const auto tex = dpb::verify::pgfplots_picture(f);
  CHECK(tex.find("\\addlegendentry{Algorithm A}") != std::string::npos);
  CHECK(tex.find("xlabel={$n$}, ylabel={$\\sin\\Theta(\\hat U, U)$}") != std::string::npos);
  const auto gp = dpb::verify::gnuplot_script(f, "out.png", "out.svg");
  CHECK(gp.find("title \"Algorithm A\"") != std::string::npos);
  CHECK(gp.find("set ylabel \"sin of the largest principal angle\"") != std::string::npos);
}

TEST_CASE("figures: the caption carries the documented reason of a claim that did not reproduce",
          "[report][figures]") {
  auto f = dpb::verify::figure_data(dpb::test::small_results(), figure(""), {});
  f.claim_notes.push_back("FAIL dominates a <= b: a constant the paper leaves open");
  CHECK(dpb::verify::figure_caption(f).find(". FAIL dominates a <= b: a constant the paper leaves open.") !=
        std::string::npos);
  CHECK(dpb::verify::pgfplots_picture(f).find("a constant the paper leaves open") != std::string::npos);
}

TEST_CASE("figures: a boxplot draws quartiles and Tukey whiskers per cell and algorithm", "[report][figures]") {
  // Issue 21: cai2024 Fig. 1 (right) and Fig. 3 are boxplots in the paper and were drawn as lines.
  auto spec = figure("");
  spec.boxplot = true;
  auto r = dpb::test::small_results();
  r.rows[2].metrics["sin"] = 30;  // a at n = 100: 1, 2, 30 -> quartiles 1.5, 2, 16; 30 is within 1.5 IQR
  const auto f = dpb::verify::figure_data(r, spec, {});
  const auto& p = f.series[0].points[0];
  CHECK(p.q25 == 1.5);
  CHECK(p.median == 2);
  CHECK(p.q75 == 16);
  CHECK(p.whisker_low == 1);
  CHECK(p.whisker_high == 30);
  const auto tex = dpb::verify::pgfplots_picture(f);
  CHECK(tex.find("% needs \\usepgfplotslibrary{statistics}") != std::string::npos);
  CHECK(tex.find("boxplot/draw direction=y") != std::string::npos);
  // Two algorithms side by side around category 1 (n = 100): positions 0.8 and 1.2.
  CHECK(tex.find("draw position=0.8, box extend=0.32, lower whisker=1, lower quartile=1.5, median=2, upper "
                 "quartile=16, upper whisker=30") != std::string::npos);
  CHECK(tex.find("xticklabels={100,1000}") != std::string::npos);
  CHECK(dpb::verify::figure_caption(f).find("whiskers to the most extreme trial within 1.5 interquartile") !=
        std::string::npos);
  CHECK(dpb::verify::gnuplot_script(f, "a.png", "a.svg").find("with candlesticks") != std::string::npos);
}
