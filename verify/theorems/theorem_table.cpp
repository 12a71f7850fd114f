#include "verify/theorems/theorem_table.hpp"

#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <functional>
#include <ranges>

#include "core/errors.hpp"
#include "lowerbounds/catalog.hpp"
#include "verify/report/markdown.hpp"

namespace dpb::verify {
namespace {

using bounds::Theorem;
using bounds::is_schatten;
using bounds::loss_name;
using bounds::paper_key;

// The columns of the text and Markdown tables, in order; the rate goes last because it is the longest.
const std::vector<std::string>& row_headers() {
  static const std::vector<std::string> headers = {"id",      "kind",    "loss", "semantics",
                                                   "setting", "applies", "rate"};
  return headers;
}

std::vector<std::string> row_cells(const Theorem& t) {
  return {t.id,
          to_string(t.kind),
          to_string(t.loss),
          to_string(t.semantics),
          t.setting,
          fmt::format("{}", fmt::join(t.applies, ", ")),
          t.latex};
}

std::string text_table(const TheoremList& theorems) {
  std::vector<std::vector<std::string>> rows = {row_headers()};
  for (const auto* t : theorems) rows.push_back(row_cells(*t));
  std::vector<std::size_t> width(row_headers().size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c)
      line += c + 1 == row.size() ? row[c] : fmt::format("{:<{}}  ", row[c], width[c]);
    out += line + "\n";
  }
  return out;
}

std::string math(const std::string& latex) { return latex.empty() ? "" : "$" + latex + "$"; }

std::string md_table(const TheoremList& theorems) {
  std::string out = fmt::format("| {} |\n", fmt::join(row_headers(), " | "));
  for (std::size_t c = 0; c < row_headers().size(); ++c) out += "|---";
  out += "|\n";
  for (const auto* t : theorems) {
    auto cells = row_cells(*t);
    cells.back() = math(cells.back());
    for (auto& cell : cells) cell = md_cell(cell);
    out += fmt::format("| {} |\n", fmt::join(cells, " | "));
  }
  return out;
}

// A registry id or list of ids, escaped, with a break allowed after every '.', '_', ',' and '/' so that a narrow
// column can wrap it.
std::string latex_ids(const std::string& ids) {
  std::string out;
  for (const char c : ids) {
    out += latex_escape(std::string(1, c));
    if (c == '.' || c == '_' || c == ',' || c == '/') out += "\\allowbreak{}";
  }
  return out;
}

// One longtable of the rates `theorems` (all of one paper) state: a row of what each theorem is, then its
// rate on a row of its own, shrunk to the line when wider (a rate is one formula and cannot wrap).
std::string tex_rates_table(const std::string& paper, const TheoremList& theorems) {
  const std::string head = "Result & Kind & Loss & Applies to \\\\\n\\midrule\n";
  std::string out = fmt::format(
      "% {0}: rates (dpbounds theorems --paper {0} --format tex)\n"
      "% needs \\usepackage{{amsmath,amssymb,booktabs,longtable,adjustbox}}\n"
      "\\begingroup\\small\n"
      "\\begin{{longtable}}{{@{{}}p{{0.37\\linewidth}}lp{{0.19\\linewidth}}p{{0.22\\linewidth}}@{{}}}}\n"
      "\\caption{{Rates of {1}, constants and polylogarithmic factors dropped.}}\\label{{tab:rates-{0}}}\\\\\n"
      "\\toprule\n{2}\\endfirsthead\n\\toprule\n{2}\\endhead\n\\bottomrule\n\\endlastfoot\n",
      paper, latex_escape(paper), head);
  for (const auto* t : theorems)
    out += fmt::format(
        "{} & {} & {} & {} \\\\*\n\\multicolumn{{4}}{{@{{}}r@{{}}}}{{\\adjustbox{{max width=\\linewidth}}{{{}}}}} "
        "\\\\[3pt]\n",
        latex_escape(t->source), to_string(t->kind), latex_ids(to_string(t->loss)),
        latex_ids(fmt::format("{}", fmt::join(t->applies, ", "))), math(t->latex));
  out += "\\end{longtable}\n\\endgroup\n";
  return out;
}

// The paper keys of `theorems`, in order of first appearance.
std::vector<std::string> papers_of(const TheoremList& theorems) {
  std::vector<std::string> papers;
  for (const auto* t : theorems)
    if (std::find(papers.begin(), papers.end(), paper_key(*t)) == papers.end())
      papers.push_back(paper_key(*t));
  return papers;
}

using Row = bounds::TableCell::Row;
using Column = bounds::TableCell::Column;

// The rows and columns of a paper's own results table (kumar2025 Tables 1 and 2), with their labels.
const std::vector<std::pair<Row, std::string>>& cell_rows() {
  static const std::vector<std::pair<Row, std::string>> rows = {{Row::upper, "Upper Bound"},
                                                                {Row::lower, "Lower Bound"}};
  return rows;
}

const std::vector<std::pair<Column, std::string>>& cell_columns() {
  static const std::vector<std::pair<Column, std::string>> columns = {
      {Column::nonprivate, "Non-Private"}, {Column::ours, "Our Results"}, {Column::prior, "Prior Results"}};
  return columns;
}

// "$k^2$ [BL09]" or "$k^4$ (Thm. 3)", as the paper prints its cells.
std::string cell_text(const Theorem& t) {
  const std::string& citation = t.in_table->citation;
  if (citation.empty()) return math(t.latex);
  const auto cited = latex_escape(citation);
  return math(t.latex) + (citation.front() == '[' ? " " + cited : " (" + cited + ")");
}

// "kumar2025.model2" -> "Model 2"; other settings by their last component.
std::string model_label(const std::string& setting) {
  const std::string last = setting.substr(setting.rfind('.') + 1);
  return last.rfind("model", 0) == 0 && last.size() > 5 ? "Model " + last.substr(5) : last;
}

// One of the paper's own tables from its cells: rows Upper/Lower Bound (with the model when the rows
// speak of different models, as Table 2 does), columns Non-Private / Our Results / Prior Results, "None"
// where no theorem fills a cell.
std::string tex_paper_table(const std::string& paper, const std::string& table, const TheoremList& cells) {
  auto find = [&](Row row, Column column) -> const Theorem* {
    for (const auto* t : cells)
      if (t->in_table->row == row && t->in_table->column == column) return t;
    return nullptr;
  };
  std::vector<std::string> row_settings;
  for (const auto& [row, label] : cell_rows())
    for (const auto* t : cells)
      if (t->in_table->row == row) {
        row_settings.push_back(t->setting);
        break;
      }
  const bool label_models = std::adjacent_find(row_settings.begin(), row_settings.end(),
                                               std::not_equal_to<>()) != row_settings.end();
  const auto& first = *cells.front();
  const auto authors = first.source.substr(0, first.source.find(", Table"));
  const bool covariance = first.loss.name == bounds::Loss::Name::cov_op ||
                          first.loss.name == bounds::Loss::Name::cov_fro ||
                          first.loss.name == bounds::Loss::Name::cov_schatten;
  std::string out = fmt::format(
      "% {0} {1}, rebuilt from the theorems {0}.{1}.* (dpbounds theorems --paper {0} --format tex)\n"
      "% needs \\usepackage{{amsmath,amssymb,booktabs}}\n"
      "\\begin{{table}}[ht]\n\\centering\n\\small\n\\begin{{tabular}}{{llll}}\n\\toprule\n & {2} "
      "\\\\\n\\midrule\n",
      paper, table, fmt::join(cell_columns() | std::views::values, " & "));
  for (const auto& [row, label] : cell_rows()) {
    const Theorem* any = nullptr;
    std::vector<std::string> texts;
    for (const auto& [column, column_label] : cell_columns()) {
      const auto* t = find(row, column);
      texts.push_back(t ? cell_text(*t) : "None");
      if (t && !any) any = t;
    }
    if (!any) continue;
    const auto row_label = label_models ? fmt::format("{} ({})", label, model_label(any->setting)) : label;
    out += fmt::format("{} & {} \\\\\n", row_label, fmt::join(texts, " & "));
  }
  out += fmt::format(
      "\\bottomrule\n\\end{{tabular}}\n\\caption{{{}, Table {}: private {} ({}). Logarithmic factors "
      "omitted.}}\\label{{tab:{}-{}}}\n\\end{{table}}\n",
      latex_escape(authors), table.substr(5), covariance ? "covariance estimation" : "PCA",
      latex_escape(to_string(first.loss)), paper, table);
  return out;
}

std::string tex_tables(const TheoremList& theorems) {
  std::string out;
  for (const auto& paper : papers_of(theorems)) {
    TheoremList rates;
    std::vector<std::pair<std::string, TheoremList>> tables;  // the paper's own tables, by name
    for (const auto* t : theorems) {
      if (paper_key(*t) != paper) continue;
      const auto& cell = t->in_table;
      if (!cell) {
        rates.push_back(t);
        continue;
      }
      auto it =
          std::find_if(tables.begin(), tables.end(), [&](const auto& tb) { return tb.first == cell->table; });
      if (it == tables.end()) it = tables.insert(tables.end(), {cell->table, {}});
      it->second.push_back(t);
    }
    std::sort(tables.begin(), tables.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> parts;
    if (!rates.empty()) parts.push_back(tex_rates_table(paper, rates));
    for (const auto& [table, cells] : tables) parts.push_back(tex_paper_table(paper, table, cells));
    for (const auto& part : parts) {
      if (!out.empty()) out += "\n";
      out += part;
    }
  }
  return out;
}

}  // namespace

TheoremList all_theorems() {
  TheoremList all;
  for (const auto& t : bounds::upper_bound_theorems()) all.push_back(&t);
  for (const auto& t : lower::lower_bound_theorems()) all.push_back(&t);
  return all;
}


TheoremList select_theorems(const TheoremList& all, const TheoremFilter& filter) {
  const auto papers = papers_of(all);
  if (!filter.paper.empty() && std::find(papers.begin(), papers.end(), filter.paper) == papers.end())
    throw InvalidArgument(
        fmt::format("no theorems of paper '{}': papers with theorems are {}", filter.paper,
                    papers.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(papers, ", "))));
  TheoremList selected;
  std::copy_if(all.begin(), all.end(), std::back_inserter(selected), [&](const Theorem* t) {
    return (filter.paper.empty() || paper_key(*t) == filter.paper) &&
           (!filter.kind || t->kind == *filter.kind);
  });
  return selected;
}

TableFormat parse_table_format(const std::string& text) {
  if (text == "text") return TableFormat::text;
  if (text == "md") return TableFormat::md;
  if (text == "tex") return TableFormat::tex;
  if (text == "json") return TableFormat::json;
  throw InvalidArgument(fmt::format("unknown format '{}': choose text, md, tex or json", text));
}

nlohmann::json theorem_json(const Theorem& t) {
  nlohmann::json conditions = nlohmann::json::array();
  for (const auto& c : t.conditions) conditions.push_back({{"name", c.name}, {"text", c.text}});
  nlohmann::json loss = {{"name", loss_name(t.loss.name)}, {"normalized_by_rank", t.loss.normalized_by_rank}};
  if (is_schatten(t.loss)) loss["q"] = t.loss.q;
  nlohmann::json semantics = {{"high_probability", t.semantics.high_probability}};
  if (t.semantics.high_probability) semantics["zeta"] = t.semantics.zeta;
  return {{"id", t.id},
          {"source", t.source},
          {"kind", to_string(t.kind)},
          {"loss", loss},
          {"semantics", semantics},
          {"applies", t.applies},
          {"setting", t.setting},
          {"conditions", conditions},
          {"has_explicit_value", t.explicit_value.has_value()},
          {"latex", t.latex},
          {"hides", t.hides},
          {"example", t.example}};
}

std::string theorem_table(const TheoremList& theorems, TableFormat format) {
  switch (format) {
    case TableFormat::text:
      return text_table(theorems);
    case TableFormat::md:
      return md_table(theorems);
    case TableFormat::tex:
      return tex_tables(theorems);
    case TableFormat::json: {
      nlohmann::json out = nlohmann::json::array();
      for (const auto* t : theorems) out.push_back(theorem_json(*t));
      return out.dump(2) + "\n";
    }
  }
  return "";
}

std::string latex_escape(const std::string& text) {
  // Text-mode LaTeX has no >= and typesets a bare < or > as an inverted mark in the default font;
  // Unicode symbols outside Latin-1 letters stop pdflatex.
  static const std::vector<std::pair<std::string_view, std::string_view>> replacements = {
      {"<=", "$\\le$"},     {">=", "$\\ge$"},  {"<", "$<$"},           {">", "$>$"},
      {"\u2227", "$\\wedge$"}, {"\u2228", "$\\vee$"}, {"\u2264", "$\\le$"}, {"\u2265", "$\\ge$"},
      {"\u00a7", "\\S{}"},     {"\u2013", "--"},     {"\u2014", "---"},       {"\u00b1", "$\\pm$"},
      {"\u00d7", "$\\times$"}, {"\u221a", "$\\surd$"}, {"\u221e", "$\\infty$"}, {"\u03b5", "$\\varepsilon$"},
      {"\u03b4", "$\\delta$"}, {"\u03bb", "$\\lambda$"}, {"\u2248", "$\\approx$"}, {"\u00b7", "$\\cdot$"}};
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::string_view rest = std::string_view(text).substr(i);
    const auto match = std::find_if(replacements.begin(), replacements.end(),
                                    [&](const auto& r) { return rest.rfind(r.first, 0) == 0; });
    if (match != replacements.end()) {
      out += match->second;
      i += match->first.size();
      continue;
    }
    const char c = text[i++];
    switch (c) {
      case '&':
      case '%':
      case '$':
      case '#':
      case '_':
      case '{':
      case '}':
        out += std::string("\\") + c;
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      case '\\':
        out += "\\textbackslash{}";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace dpb::verify
