#include "verify/report/tables.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cmath>

#include "core/errors.hpp"
#include "verify/report/atomic_file.hpp"
#include "verify/report/grouped_values.hpp"
#include "verify/theorem_table.hpp"

namespace dpb::verify {

namespace {

// Four significant digits: enough to compare algorithms, few enough to read.
std::string number(double x) { return std::isnan(x) ? "n/a" : fmt::format("{:.4g}", x); }

std::string entry_md(const ValueSummary& s, bool median) {
  return median ? fmt::format("{} [{}, {}]", number(s.median), number(s.q25), number(s.q75))
                : fmt::format("{} ± {}", number(s.mean), number(s.sd));
}

std::string entry_tex(const ValueSummary& s, bool median) {
  if (median) return fmt::format("${}$ [${}$, ${}$]", number(s.median), number(s.q25), number(s.q75));
  return std::isnan(s.sd) ? fmt::format("${}$", number(s.mean))
                          : fmt::format("${} \\pm {}$", number(s.mean), number(s.sd));
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_number(double x) { return std::isnan(x) ? "" : fmt::format("{:.17g}", x); }

}  // namespace

void validate(const TableSpec& spec) {
  if (spec.stat != "mean_sd" && spec.stat != "median_iqr")
    throw InvalidArgument(
        fmt::format("table stat '{}' is unknown (allowed: mean_sd, median_iqr)", spec.stat));
}

RenderedTable render_table(const ResultSet& results, const TableSpec& spec, const std::string& metric) {
  validate(spec);
  const bool median = spec.stat == "median_iqr";
  const GroupedValues g = group_values(results, spec.rows, spec.columns, metric);
  RenderedTable t;
  t.name = file_stem(fmt::format("{}-{}-by-{}-{}", metric, spec.rows, spec.columns, spec.stat));
  t.caption = fmt::format("{}: {} over trials", metric, median ? "median [IQR]" : "mean ± sd");
  if (!g.pooled.empty()) t.caption += fmt::format(", pooled over {}", fmt::join(g.pooled, ", "));

  t.md = fmt::format("| {} |", spec.rows);
  std::string rule = "|---|";
  t.tex = fmt::format("% {} ({}, experiment {})\n\\begin{{tabular}}{{l{}}}\n\\toprule\n{}", t.caption, metric,
                      results.experiment, std::string(g.columns.size(), 'r'), latex_escape(spec.rows));
  for (const auto& column : g.columns) {
    t.md += fmt::format(" {} |", column.label);
    rule += "---|";
    t.tex += fmt::format(" & {}", latex_escape(column.label));
  }
  t.md += "\n" + rule + "\n";
  t.tex += " \\\\\n\\midrule\n";
  t.csv = fmt::format("{},{},metric,trials,mean,sd,median,q25,q75\n", csv_field(spec.rows),
                      csv_field(spec.columns));
  for (std::size_t i = 0; i < g.rows.size(); ++i) {
    t.md += fmt::format("| {} |", g.rows[i].label);
    t.tex += latex_escape(g.rows[i].label);
    for (std::size_t j = 0; j < g.columns.size(); ++j) {
      const auto found = g.values.find({i, j});
      if (found == g.values.end()) {
        t.md += " — |";
        t.tex += " & ---";
        continue;
      }
      const ValueSummary s = summarize(found->second);
      t.md += fmt::format(" {} |", entry_md(s, median));
      t.tex += fmt::format(" & {}", entry_tex(s, median));
      t.csv += fmt::format("{},{},{},{},{},{},{},{},{}\n", csv_field(g.rows[i].label),
                           csv_field(g.columns[j].label), csv_field(metric), s.trials, csv_number(s.mean),
                           csv_number(s.sd), csv_number(s.median), csv_number(s.q25), csv_number(s.q75));
    }
    t.md += "\n";
    t.tex += " \\\\\n";
  }
  t.tex += "\\bottomrule\n\\end{tabular}\n";
  return t;
}

}  // namespace dpb::verify
