#include "verify/theorems/theorem_table.hpp"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "bounds/table_cell.hpp"
#include "core/errors.hpp"
#include "tests/support/text.hpp"
#include "verify/theorem_fixtures.hpp"

using dpb::bounds::Kind;
using dpb::bounds::Params;
using dpb::bounds::Theorem;
using dpb::test::occurrences;
using dpb::test::synthetic_theorem;
using dpb::verify::TableFormat;

namespace {

double one(const Params&) { return 1; }

}  // namespace

TEST_CASE("theorems are selected by paper key and kind", "[theorem_table]") {
  const auto a = synthetic_theorem("alpha2020.thm1", Kind::upper, one);
  const auto b = synthetic_theorem("alpha2020.thm2", Kind::lower, one);
  const auto c = synthetic_theorem("beta2021.cor3", Kind::upper, one);
  const dpb::verify::TheoremList all = {&a, &b, &c};
  CHECK(dpb::bounds::paper_key(c) == "beta2021");
  CHECK(dpb::verify::select_theorems(all, {}).size() == 3);
  CHECK(dpb::verify::select_theorems(all, {"alpha2020", std::nullopt}) == dpb::verify::TheoremList{&a, &b});
  CHECK(dpb::verify::select_theorems(all, {"", Kind::upper}) == dpb::verify::TheoremList{&a, &c});
  CHECK(dpb::verify::select_theorems(all, {"alpha2020", Kind::lower}) == dpb::verify::TheoremList{&b});
  // An unknown paper names the papers that have theorems.
  CHECK_THROWS_WITH(dpb::verify::select_theorems(all, {"gamma", std::nullopt}),
                    Catch::Contains("alpha2020, beta2021"));
}

TEST_CASE("kinds and formats parse, and anything else names what is allowed", "[theorem_table]") {
  CHECK(dpb::bounds::parse_kind("lower") == Kind::lower);
  CHECK_THROWS_WITH(dpb::bounds::parse_kind("middle"), Catch::Contains("upper or lower"));
  CHECK(dpb::verify::parse_table_format("tex") == TableFormat::tex);
  CHECK_THROWS_AS(dpb::verify::parse_table_format("pdf"), dpb::InvalidArgument);
  CHECK_THROWS_WITH(dpb::verify::parse_table_format("pdf"), Catch::Contains("text, md, tex or json"));
}

TEST_CASE("losses and semantics have the names every theorem output uses", "[theorem_table]") {
  using dpb::bounds::Loss;
  CHECK(dpb::bounds::to_string(Loss{Loss::Name::sin, 2, false}) == "sin");
  CHECK(dpb::bounds::to_string(Loss{Loss::Name::projector_schatten, 1, true}) ==
        "projector_schatten(q=1)/r^(1/q)");
  CHECK(dpb::bounds::to_string(Loss{Loss::Name::cov_fro, 2, true}) == "cov_fro/sqrt(r)");
  CHECK(dpb::bounds::to_string(dpb::bounds::Semantics{true, 0.01}) == "w.p. 0.99");
  CHECK(dpb::bounds::to_string(dpb::bounds::Semantics{false, 0}) == "expectation");
}

TEST_CASE("LaTeX specials are escaped in text cells", "[theorem_table]") {
  CHECK(dpb::verify::latex_escape("a & b_1 50% #2 $x$ {y}") == R"(a \& b\_1 50\% \#2 \$x\$ \{y\})");
  CHECK(dpb::verify::latex_escape(R"(~^\)") == R"(\textasciitilde{}\textasciicircum{}\textbackslash{})");
  CHECK(dpb::verify::latex_escape("plain text, (1)") == "plain text, (1)");
}

TEST_CASE("text and Markdown tables have one row per theorem", "[theorem_table]") {
  auto a = synthetic_theorem("alpha2020.thm1", Kind::upper, one);
  a.latex = R"(\|x\|)";  // a pipe, which Markdown must not read as a cell boundary
  const auto b = synthetic_theorem("alpha2020.thm2", Kind::lower, one);
  const auto text = dpb::verify::theorem_table({&a, &b}, TableFormat::text);
  CHECK(occurrences(text, "\n") == 3);  // header + 2 rows
  CHECK(text.rfind("id ", 0) == 0);
  CHECK(text.find("alpha2020.thm2  lower") != std::string::npos);
  const auto md = dpb::verify::theorem_table({&a, &b}, TableFormat::md);
  CHECK(occurrences(md, "\n") == 4);  // header, rule, 2 rows
  CHECK(md.find(R"($\\|x\\|$)") != std::string::npos);
}

TEST_CASE("tex writes one booktabs rates longtable per paper and escapes text columns", "[theorem_table]") {
  auto a = synthetic_theorem("alpha2020.thm1", Kind::upper, one);
  a.source = "Alpha & Omega 2020, Theorem 1_b (100% sure; w.p. >= 1 - e^{-c(n\u2227p)})";
  a.latex = R"(\frac{d}{n\varepsilon})";
  a.applies = {"demo.private_algorithm"};
  const auto b = synthetic_theorem("beta2021.cor3", Kind::lower, one);
  const auto tex = dpb::verify::theorem_table({&a, &b}, TableFormat::tex);
  // A longtable breaks across pages; its head repeats (\endfirsthead, \endhead), so two rules each.
  CHECK(occurrences(tex, R"(\begin{longtable})") == 2);
  CHECK(occurrences(tex, R"(\toprule)") == 4);
  CHECK(occurrences(tex, R"(\bottomrule)") == 2);
  // Issue 21: `Unicode character ∧` stopped pdflatex and ">=" printed as an inverted question mark.
  CHECK(tex.find(R"(Alpha \& Omega 2020, Theorem 1\_b (100\% sure; w.p. $\ge$ 1 - e\textasciicircum{}\{-c(n$\wedge$p)\}))") !=
        std::string::npos);
  CHECK(tex.find(R"($\frac{d}{n\varepsilon}$)") != std::string::npos);  // math is kept as written
  // ... but text is escaped, with breaks allowed in ids for narrow columns.
  CHECK(tex.find(R"(demo.\allowbreak{}private\_\allowbreak{}algorithm)") != std::string::npos);
  CHECK(tex.find("demo.private_algorithm") == std::string::npos);
}

TEST_CASE("a paper's own table is rebuilt from its cells, None where no theorem fills one",
          "[theorem_table]") {
  using Row = dpb::bounds::TableCell::Row;
  using Column = dpb::bounds::TableCell::Column;
  auto cell = [](Row row, Column column, Kind kind, const std::string& latex, const std::string& citation,
                 const std::string& setting) {
    auto t = synthetic_theorem("placed by table_cell", kind, one);
    t.setting = setting;
    return dpb::bounds::table_cell(t, "alpha2020", {"table1", row, column, citation}, "Alpha, Beta 2020",
                                   "Table 1 (cell)", latex);
  };
  const auto up_np = cell(Row::upper, Column::nonprivate, Kind::upper, "k^2", "[BL09]", "alpha2020.model2");
  const auto up_ours = cell(Row::upper, Column::ours, Kind::upper, "k^4", "Thm. 3", "alpha2020.model2");
  const auto low_ours = cell(Row::lower, Column::ours, Kind::lower, "d", "Thm. 4", "alpha2020.model1");
  CHECK(up_np.id == "alpha2020.table1.upper.nonprivate");
  CHECK(up_np.source == "Alpha, Beta 2020, Table 1 (cell): [BL09]");
  const auto rate = synthetic_theorem("alpha2020.thm3", Kind::upper, one);
  const auto tex = dpb::verify::theorem_table({&rate, &up_np, &up_ours, &low_ours}, TableFormat::tex);
  // The rates longtable (thm3 only; its head repeats on every page, so two rules) and Table 1.
  CHECK(occurrences(tex, R"(\toprule)") == 3);
  CHECK(occurrences(tex, "alpha2020.table1") ==
        1);  // cells stay out of the rates table: only the comment names them
  CHECK(tex.find(" & Non-Private & Our Results & Prior Results \\\\") != std::string::npos);
  // Rows speak of different models, so each row names its model, as the paper's Table 2 does.
  CHECK(tex.find(R"(Upper Bound (Model 2) & $k^2$ [BL09] & $k^4$ (Thm. 3) & None \\)") != std::string::npos);
  CHECK(tex.find(R"(Lower Bound (Model 1) & None & $d$ (Thm. 4) & None \\)") != std::string::npos);
  CHECK(tex.find("Alpha, Beta 2020, Table 1") != std::string::npos);
}

TEST_CASE("JSON carries every field but the functions", "[theorem_table]") {
  auto a = synthetic_theorem("alpha2020.thm1", Kind::lower, one, {{"n", 100}});
  a.conditions.push_back(dpb::test::at_least("n", 10));
  a.explicit_value = one;
  const auto j = nlohmann::json::parse(dpb::verify::theorem_table({&a}, TableFormat::json));
  REQUIRE(j.size() == 1);
  CHECK(j[0] == dpb::verify::theorem_json(a));
  CHECK(j[0].at("kind") == "lower");
  CHECK(j[0].at("loss").at("name") == "sin");
  CHECK(j[0].at("conditions").at(0).at("name") == "n >= 10");
  CHECK(j[0].at("has_explicit_value") == true);
  CHECK(j[0].at("example").at("n") == 100);
  CHECK(j[0].at("setting") == "demo.model");
}

TEST_CASE("the catalogue lists upper bounds then lower bounds", "[theorem_table]") {
  const auto all = dpb::verify::all_theorems();
  REQUIRE(!all.empty());
  const auto first_lower =
      std::find_if(all.begin(), all.end(), [](const Theorem* t) { return t->kind == Kind::lower; });
  CHECK(std::all_of(first_lower, all.end(), [](const Theorem* t) { return t->kind == Kind::lower; }));
}

TEST_CASE("kumar2025 Tables 1 and 2 are rebuilt from the catalogue's cells", "[theorem_table][kumar2025]") {
  const auto kumar = dpb::verify::select_theorems(dpb::verify::all_theorems(), {"kumar2025", std::nullopt});
  const auto tex = dpb::verify::theorem_table(kumar, TableFormat::tex);
  for (const char* table : {"kumar2025 table1", "kumar2025 table2"})
    CHECK(tex.find(table) != std::string::npos);
  // Every cell carries its position (no id is parsed to find it) and its id is made from it: two tables,
  // each with three upper cells and two lower ones (Prior Results has no lower bound).
  int cells = 0;
  for (const auto* t : kumar) {
    INFO(t->id);
    CHECK((t->id.find(".table") != std::string::npos) == t->in_table.has_value());
    if (!t->in_table) continue;
    ++cells;
    CHECK(t->id == "kumar2025." + t->in_table->table + "." + dpb::bounds::to_string(t->in_table->row) + "." +
                       dpb::bounds::to_string(t->in_table->column));
    CHECK(tex.find("$" + t->latex + "$") != std::string::npos);
  }
  CHECK(cells == 10);
}
