#include "verify/report/tables.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "core/errors.hpp"
#include "verify/report/atomic_file.hpp"
#include "verify/report/display_names.hpp"
#include "verify/report/grouped_values.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {

namespace {

enum class Stat { mean_ci, mean_sd, median_iqr };

}  // namespace

const std::vector<std::string>& table_stat_names() {
  static const std::vector<std::string> names = {"mean_ci", "mean_sd", "median_iqr"};
  return names;
}

namespace {

Stat parse_stat(const std::string& stat) {
  const auto& names = table_stat_names();
  const auto found = std::find(names.begin(), names.end(), stat);
  if (found == names.end())
    throw InvalidArgument(fmt::format("table stat '{}' is unknown (allowed: {})", stat, fmt::join(names, ", ")));
  return static_cast<Stat>(found - names.begin());  // in the order of Stat
}

// In words, with `plus_minus` for the sign and `percent` for '%' (Markdown and LaTeX spell them apart).
std::string stat_words(Stat stat, const std::string& plus_minus, const std::string& percent) {
  switch (stat) {
    case Stat::mean_ci:
      return "mean " + plus_minus + " half-width of its 95" + percent + " confidence interval (Student t)";
    case Stat::mean_sd:
      return "mean " + plus_minus + " standard deviation";
    case Stat::median_iqr:
      return "median [first, third quartile]";
  }
  return "";
}

// Half-width of the two-sided 95% Student-t interval for the mean; NaN with fewer than two trials.
double ci_half_width(const ValueSummary& s) {
  if (s.trials < 2 || std::isnan(s.sd)) return std::nan("");
  const boost::math::students_t t(static_cast<double>(s.trials - 1));
  return boost::math::quantile(t, 0.975) * s.sd / std::sqrt(static_cast<double>(s.trials));
}

// The entry's centre and its spread (or quartiles), in the table's statistic.
struct Entry {
  double centre = 0, low = 0, high = 0;  // mean_ci / mean_sd: low = high = the ± term
};

Entry entry_of(const ValueSummary& s, Stat stat) {
  switch (stat) {
    case Stat::mean_ci:
      return {s.mean, ci_half_width(s), ci_half_width(s)};
    case Stat::mean_sd:
      return {s.mean, s.sd, s.sd};
    case Stat::median_iqr:
      return {s.median, s.q25, s.q75};
  }
  return {};
}

// Decimal places that give the column's largest centre three significant digits and its smallest nonzero one
// two (a column holding 2.4 and 0.0099 would otherwise print 0.01 ± 0.00), at most four places more than the
// largest needs; every entry of the column uses them, so the digits line up.
int column_places(const std::vector<Entry>& entries) {
  double largest = 0, smallest = INFINITY;
  for (const auto& e : entries)
    if (std::isfinite(e.centre) && e.centre != 0) {
      largest = std::max(largest, std::abs(e.centre));
      smallest = std::min(smallest, std::abs(e.centre));
    }
  if (largest == 0) return 2;
  const auto places_for = [](double x, int digits) { return digits - 1 - static_cast<int>(std::floor(std::log10(x))); };
  const int for_largest = places_for(largest, 3);
  return std::clamp(std::max(for_largest, std::min(places_for(smallest, 2), for_largest + 4)), 0, 12);
}

std::string fixed(double x, int places) { return std::isnan(x) ? "n/a" : fmt::format("{:.{}f}", x, places); }

std::string entry_md(const Entry& e, Stat stat, int places) {
  if (stat == Stat::median_iqr)
    return fmt::format("{} [{}, {}]", fixed(e.centre, places), fixed(e.low, places), fixed(e.high, places));
  return std::isnan(e.low) ? fixed(e.centre, places) : fmt::format("{} ± {}", fixed(e.centre, places), fixed(e.low, places));
}

// In bold, \boldmath reaches the math \num sets only when siunitx keeps the math version.
std::string entry_tex(const Entry& e, Stat stat, int places, bool bold) {
  const std::string num_command = bold ? "\\num[reset-math-version=false]{" : "\\num{";
  const auto num = [&](double x) { return std::isnan(x) ? std::string("n/a") : num_command + fixed(x, places) + "}"; };
  const std::string weight = bold ? "\\bfseries\\boldmath " : "";
  if (stat == Stat::median_iqr) return fmt::format("{}{} [{}, {}]", weight, num(e.centre), num(e.low), num(e.high));
  return std::isnan(e.low) ? weight + num(e.centre) : fmt::format("{}{} $\\pm$ {}", weight, num(e.centre), num(e.low));
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_number(double x) { return std::isnan(x) ? "" : fmt::format("{:.17g}", x); }

}  // namespace

void validate(const TableSpec& spec) { parse_stat(spec.stat); }

RenderedTable render_table(const ResultSet& results, const TableSpec& spec, const std::string& metric,
                           const std::map<std::string, std::string>& names) {
  const Stat stat = parse_stat(spec.stat);
  RenderedTable t;
  t.name = file_stem(fmt::format("{}-{}-by-{}-{}", metric, spec.rows, spec.columns, spec.stat));
  // Fewer columns than rows fits the page: a table asked for with more is laid out transposed.
  GroupedValues g = group_values(results, spec.rows, spec.columns, metric);
  std::string rows = spec.rows, columns = spec.columns;
  if (g.columns.size() > g.rows.size()) {
    g = group_values(results, spec.columns, spec.rows, metric);
    std::swap(rows, columns);
  }
  std::size_t fewest = 0, most = 0;
  std::vector<std::vector<std::optional<ValueSummary>>> summaries(g.rows.size());
  for (std::size_t i = 0; i < g.rows.size(); ++i)
    for (std::size_t j = 0; j < g.columns.size(); ++j) {
      const auto found = g.values.find({i, j});
      summaries[i].push_back(found == g.values.end() ? std::nullopt : std::optional(summarize(found->second)));
      if (const auto& s = summaries[i].back()) {
        fewest = fewest == 0 ? s->trials : std::min(fewest, s->trials);
        most = std::max(most, s->trials);
      }
    }
  // The best algorithm's entry of each cell (by its centre), when asked: along a row when the columns
  // are the algorithms, down a column when the rows are.
  std::set<std::pair<std::size_t, std::size_t>> best;
  if (!spec.best.empty()) {
    const bool along_rows = columns == "algorithm";
    const std::size_t lines = along_rows ? g.rows.size() : g.columns.size();
    const std::size_t across = along_rows ? g.columns.size() : g.rows.size();
    for (std::size_t a = 0; a < lines; ++a) {
      std::optional<std::pair<std::size_t, std::size_t>> winner;
      double winning = 0;
      for (std::size_t b = 0; b < across; ++b) {
        const auto at = along_rows ? std::pair{a, b} : std::pair{b, a};
        const auto& cell = summaries[at.first][at.second];
        if (!cell) continue;
        const double centre = entry_of(*cell, stat).centre;
        if (!winner || (spec.best == "min" ? centre < winning : centre > winning)) winner = at, winning = centre;
      }
      if (winner) best.insert(*winner);
    }
  }
  std::vector<int> places(g.columns.size());
  for (std::size_t j = 0; j < g.columns.size(); ++j) {
    std::vector<Entry> column;
    for (std::size_t i = 0; i < g.rows.size(); ++i)
      if (summaries[i][j]) column.push_back(entry_of(*summaries[i][j], stat));
    places[j] = column_places(column);
  }

  // An axis's values: algorithms by their names, numbers as they are.
  const auto shown = [&](const std::string& axis, const std::string& label) {
    return axis == "algorithm" ? algorithm_display(label, names) : DisplayName{label, latex_escape(label)};
  };
  const DisplayName metric_name = metric_display(metric);
  const std::string trials = fewest == most ? fmt::format("{}", most) : fmt::format("{} to {}", fewest, most);
  const std::string pooled = g.pooled.empty() ? "" : fmt::format(", pooled over {}", fmt::join(g.pooled, ", "));
  t.caption = fmt::format("{} of {}: {} over {} trials per entry{}", metric_name.text, results.experiment,
                          stat_words(stat, "±", "%"), trials, pooled);
  const std::string caption_tex =
      fmt::format("{} of {}: {} over {} trials per entry{}.", metric_name.latex, latex_escape(results.experiment),
                  stat_words(stat, "$\\pm$", "\\%"), trials, latex_escape(pooled));

  t.md = fmt::format("| {} |", parameter_display(rows).text);
  std::string rule = "|---|";
  t.tex = fmt::format(
      "% {} ({}, experiment {})\n% needs \\usepackage{{booktabs,siunitx,adjustbox}}\n"
      "\\begin{{table}}[ht]\n\\centering\n\\small\n\\adjustbox{{max width=\\linewidth}}{{%\n"
      "\\begin{{tabular}}{{l{}}}\n\\toprule\n{}",
      t.caption, metric, results.experiment, std::string(g.columns.size(), 'r'), parameter_display(rows).latex);
  for (const auto& column : g.columns) {
    const DisplayName name = shown(columns, column.label);
    t.md += fmt::format(" {} |", name.text);
    rule += "---|";
    t.tex += fmt::format(" & {}", name.latex);
  }
  t.md += "\n" + rule + "\n";
  t.tex += " \\\\\n\\midrule\n";
  t.csv = fmt::format("{},{},metric,trials,mean,sd,ci95_low,ci95_high,median,q25,q75\n", csv_field(rows),
                      csv_field(columns));
  for (std::size_t i = 0; i < g.rows.size(); ++i) {
    const DisplayName row_name = shown(rows, g.rows[i].label);
    t.md += fmt::format("| {} |", row_name.text);
    t.tex += row_name.latex;
    for (std::size_t j = 0; j < g.columns.size(); ++j) {
      if (!summaries[i][j]) {
        t.md += " — |";
        t.tex += " & ---";
        continue;
      }
      const ValueSummary& s = *summaries[i][j];
      const Entry e = entry_of(s, stat);
      const bool bold = best.count({i, j}) > 0;
      const std::string md = entry_md(e, stat, places[j]);
      t.md += bold ? fmt::format(" **{}** |", md) : fmt::format(" {} |", md);
      t.tex += fmt::format(" & {}", entry_tex(e, stat, places[j], bold));
      const double half = ci_half_width(s);
      t.csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(g.rows[i].label),
                           csv_field(g.columns[j].label), csv_field(metric), s.trials, csv_number(s.mean),
                           csv_number(s.sd), csv_number(s.mean - half), csv_number(s.mean + half),
                           csv_number(s.median), csv_number(s.q25), csv_number(s.q75));
    }
    t.md += "\n";
    t.tex += " \\\\\n";
  }
  t.tex += fmt::format("\\bottomrule\n\\end{{tabular}}}}\n\\caption{{{}}}\n\\label{{tab:{}-{}}}\n\\end{{table}}\n",
                       caption_tex, file_stem(results.experiment), t.name);
  return t;
}

}  // namespace dpb::verify
