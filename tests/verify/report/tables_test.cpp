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
  CHECK(t.md.find("| 100 | 2 ± 1 | 4 ± 0 |") != std::string::npos);
  CHECK(t.md.find("| 1000 | 0.6 ± 0.1732 | 0.3 ± 0.1414 |") != std::string::npos);
  CHECK(t.tex.find("\\toprule") != std::string::npos);
  CHECK(t.tex.find("\\begin{tabular}{lrr}") != std::string::npos);
  CHECK(t.tex.find("100 & $2 \\pm 1$ & $4 \\pm 0$ \\\\") != std::string::npos);
  CHECK(t.tex.find("\\bottomrule") != std::string::npos);
  // CSV: long form with every summary, full precision.
  CHECK(t.csv.find("n,algorithm,metric,trials,mean,sd,median,q25,q75\n") == 0);
  CHECK(t.csv.find("100,a,sin,3,2,1,2,1.5,2.5\n") != std::string::npos);
  CHECK(t.csv.find(fmt::format("1000,b,sin,2,{:.17g},", (0.2 + 0.4) / 2)) != std::string::npos);
}

TEST_CASE("tables: median [IQR], algorithms as rows, and the stat is validated", "[report][tables]") {
  auto spec = table("median_iqr");
  spec.rows = std::string("algorithm");
  spec.columns = std::string("n");
  const auto t = dpb::verify::render_table(dpb::test::small_results(), spec, "sin");
  CHECK(t.md.find("| algorithm | 100 | 1000 |") == 0);
  // a at n = 1000: 0.5, 0.5, 0.8 -> median 0.5, quartiles 0.5 and 0.65 (type 7).
  CHECK(t.md.find("| a | 2 [1.5, 2.5] | 0.5 [0.5, 0.65] |") != std::string::npos);
  CHECK(t.tex.find("$2$ [$1.5$, $2.5$]") != std::string::npos);
  auto bad = table("mean_sd");
  bad.stat = std::string("mode");
  CHECK_THROWS_WITH(dpb::verify::validate(bad), Catch::Contains("median_iqr"));
}

TEST_CASE("tables: pooled parameters are named in the caption", "[report][tables]") {
  auto r = dpb::test::small_results();
  r.rows[0].cell_params["d"] = 7;  // the n = 100 group of "a" now mixes d = 5 and d = 7
  const auto t = dpb::verify::render_table(r, table("mean_sd"), "sin");
  CHECK(t.caption.find("pooled over d") != std::string::npos);
}
