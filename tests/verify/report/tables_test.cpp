#include "verify/report/tables.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.hpp"
#include "tests/verify/report/report_fixture.hpp"

using dpb::verify::TableSpec;

namespace {
TableSpec table(const std::string& stat) {
  TableSpec t;
  t.stat = std::string(stat);  // moved in: see tests/verify/checks/synthetic.hpp
  return t;
}
}  // namespace

TEST_CASE("tables: mean ± sd per (n, algorithm) in Markdown, booktabs LaTeX and CSV", "[report][tables]") {
  const auto t = dpb::verify::render_table(dpb::test::small_results(), table("mean_sd"), "sin");
  CHECK(t.name == "sin-n-by-algorithm-mean_sd");
  CHECK(t.md.find("| n | a | b |") == 0);
  // a at n = 100: mean 2, sd 1; a at n = 1000: mean 0.6, sd sqrt(0.03) = 0.1732; b: 4 ± 0, 0.3 ± 0.1414.
  // Each column has the decimal places that give its largest mean three significant digits (issue 21:
  // "$0.041 \pm 0.004173$" mixed digits).
  CHECK(t.md.find("| 100 | 2.00 ± 1.00 | 4.00 ± 0.00 |") != std::string::npos);
  CHECK(t.md.find("| 1000 | 0.60 ± 0.17 | 0.30 ± 0.14 |") != std::string::npos);
  CHECK(t.tex.find("\\toprule") != std::string::npos);
  CHECK(t.tex.find("\\begin{tabular}{lrr}") != std::string::npos);
  CHECK(t.tex.find("100 & \\num{2.00} $\\pm$ \\num{1.00} & \\num{4.00} $\\pm$ \\num{0.00} \\\\") != std::string::npos);
  CHECK(t.tex.find("\\bottomrule") != std::string::npos);
  // A float a paper can \input: caption with the statistic and trials, a label, fitted to the line.
  CHECK(t.tex.find("\\begin{table}") != std::string::npos);
  CHECK(t.tex.find("\\adjustbox{max width=\\linewidth}") != std::string::npos);
  CHECK(t.tex.find("\\caption{$\\sin\\Theta(\\hat U, U)$ of small: mean $\\pm$ standard deviation over 2 to 3 "
                   "trials per entry.}") != std::string::npos);
  CHECK(t.tex.find("\\label{tab:small-sin-n-by-algorithm-mean_sd}") != std::string::npos);
  // CSV: long form with every summary, full precision.
  CHECK(t.csv.find("n,algorithm,metric,trials,mean,sd,ci95_low,ci95_high,median,q25,q75\n") == 0);
  CHECK(t.csv.find("100,a,sin,3,2,1,") != std::string::npos);
  CHECK(t.csv.find(fmt::format("1000,b,sin,2,{:.17g},", (0.2 + 0.4) / 2)) != std::string::npos);
}

TEST_CASE("tables: a column spanning orders of magnitude keeps two significant digits of its smallest entry",
          "[report][tables]") {
  // The dugler2026 reproduction's table printed DP-Gauss-1's 0.0099 beside ADADPO's 2.41 as "0.01 ± 0.00".
  auto r = dpb::test::small_results();
  const auto scale_b_at_1000 = [&](double factor) {
    for (auto& row : r.rows)
      if (row.algorithm == "b" && row.cell == 1 && row.metrics.count("sin")) row.metrics["sin"] *= factor;
  };
  scale_b_at_1000(0.01);  // b: 4 ± 0 at n = 100, 0.003 ± 0.0014 at n = 1000
  auto md = dpb::verify::render_table(r, table("mean_sd"), "sin").md;
  CHECK(md.find("| 100 | 2.00 ± 1.00 | 4.0000 ± 0.0000 |") != std::string::npos);
  CHECK(md.find("| 1000 | 0.60 ± 0.17 | 0.0030 ± 0.0014 |") != std::string::npos);
  // A value far below the column's largest gets at most four places more than the largest needs.
  scale_b_at_1000(1e-4);
  md = dpb::verify::render_table(r, table("mean_sd"), "sin").md;
  CHECK(md.find("| 1000 | 0.60 ± 0.17 | 0.000000 ± 0.000000 |") != std::string::npos);
}

TEST_CASE("tables: the default statistic is the mean with its 95% Student-t interval", "[report][tables]") {
  const auto t = dpb::verify::render_table(dpb::test::small_results(), TableSpec{}, "sin");
  // a at n = 100: sd 1 over 3 trials, t(0.975, 2) = 4.3027: half-width 2.4841.
  CHECK(t.md.find("| 100 | 2.00 ± 2.48 |") != std::string::npos);
  CHECK(t.caption.find("95% confidence interval") != std::string::npos);
  const auto row = t.csv.substr(t.csv.find("100,a,sin,3,2,1,"));
  CHECK(std::stod(row.substr(16)) == Approx(2 - 4.302652729749464 / std::sqrt(3.0)).epsilon(1e-12));
}

TEST_CASE("tables: a table with more columns than rows is laid out transposed", "[report][tables]") {
  // Issue 21: one row of n against many algorithm columns ran 75 pt past the text.
  auto r = dpb::test::small_results();
  std::erase_if(r.rows, [](const auto& row) { return row.cell != 0; });
  const auto t = dpb::verify::render_table(r, table("mean_sd"), "sin");
  CHECK(t.md.find("| Algorithm | 100 |") == 0);
  CHECK(t.md.find("| a | 2.00 ± 1.00 |") != std::string::npos);
}

TEST_CASE("tables: median [IQR], algorithms as rows, and the stat is validated", "[report][tables]") {
  auto spec = table("median_iqr");
  spec.rows = std::string("algorithm");
  spec.columns = std::string("n");
  const auto t = dpb::verify::render_table(dpb::test::small_results(), spec, "sin");
  CHECK(t.md.find("| Algorithm | 100 | 1000 |") == 0);
  // a at n = 1000: 0.5, 0.5, 0.8 -> median 0.5, quartiles 0.5 and 0.65 (type 7).
  CHECK(t.md.find("| a | 2.00 [1.50, 2.50] | 0.500 [0.500, 0.650] |") != std::string::npos);
  CHECK(t.tex.find("\\num{2.00} [\\num{1.50}, \\num{2.50}]") != std::string::npos);
  auto bad = table("mean_sd");
  bad.stat = std::string("mode");
  CHECK_THROWS_WITH(dpb::verify::validate(bad), Catch::Contains("mean_ci"));
}

TEST_CASE("tables: pooled parameters are named in the caption", "[report][tables]") {
  auto r = dpb::test::small_results();
  r.rows[0].cell_params["d"] = 7;  // the n = 100 group of "a" now mixes d = 5 and d = 7
  const auto t = dpb::verify::render_table(r, table("mean_sd"), "sin");
  CHECK(t.caption.find("pooled over d") != std::string::npos);
}

TEST_CASE("tables: algorithms, parameters and metrics appear by their names", "[report][tables]") {
  // Issue 21: column heads were raw labels (`cai2024.gaussian\_mechanism[C2=3,C5=4]`) and n was not math.
  auto r = dpb::test::small_results();
  for (auto& row : r.rows) {
    row.algorithm = row.algorithm == "a" ? "cai2024.gaussian_mechanism[C2=3,C5=4]" : "baseline.dp_gauss";
    if (row.metrics.count("sin")) row.metrics["projector_fro"] = row.metrics["sin"];
  }
  const auto t = dpb::verify::render_table(r, table("mean_sd"), "projector_fro", {{"baseline.dp_gauss", "DP-Gauss (ours)"}});
  CHECK(t.md.find("| n | Gaussian mechanism (C2 = 3, C5 = 4) | DP-Gauss (ours) |") == 0);
  CHECK(t.tex.find("$n$ & Gaussian mechanism ($C_{2}$ $=$ 3, $C_{5}$ $=$ 4) & DP-Gauss (ours) \\\\") != std::string::npos);
  CHECK(t.tex.find("\\caption{$\\|\\hat U\\hat U^\\top - UU^\\top\\|_{F}$ of small") != std::string::npos);
  // The CSV keeps the labels a program matches on.
  CHECK(t.csv.find("100,\"cai2024.gaussian_mechanism[C2=3,C5=4]\",projector_fro,") != std::string::npos);
}

TEST_CASE("tables: the best algorithm of each cell in bold when asked", "[report][tables]") {
  auto spec = table("mean_sd");
  spec.best = "min";
  const auto t = dpb::verify::render_table(dpb::test::small_results(), spec, "sin");
  // n = 100: a 2 < b 4; n = 1000: b 0.3 < a 0.6.
  CHECK(t.md.find("| 100 | **2.00 ± 1.00** | 4.00 ± 0.00 |") != std::string::npos);
  CHECK(t.md.find("| 1000 | 0.60 ± 0.17 | **0.30 ± 0.14** |") != std::string::npos);
  CHECK(t.tex.find("100 & \\bfseries\\boldmath \\num[reset-math-version=false]{2.00}") != std::string::npos);
  spec.best = "max";
  CHECK(dpb::verify::render_table(dpb::test::small_results(), spec, "sin").md.find("| 100 | 2.00 ± 1.00 | **4.00 ± 0.00** |") !=
        std::string::npos);
}
