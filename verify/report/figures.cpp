#include "verify/report/figures.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "verify/bound_evaluation.hpp"
#include "verify/report/atomic_file.hpp"
#include "verify/report/grouped_values.hpp"

namespace dpb::verify {

namespace {

// Error bars span this many standard errors either side of the mean: about a 95% interval.
constexpr double kStandardErrors = 2;

std::vector<FigureSeries> series_of(const GroupedValues& g, const FigureSpec& spec,
                                    std::vector<std::string>& notes) {
  std::vector<FigureSeries> series;
  for (std::size_t j = 0; j < g.columns.size(); ++j) {
    FigureSeries s{g.columns[j].label, {}};
    for (std::size_t i = 0; i < g.rows.size(); ++i) {
      const auto found = g.values.find({i, j});
      if (found == g.values.end()) continue;
      const double x = g.rows[i].value;
      const ValueSummary v = summarize(found->second);
      if (std::isnan(x) || (spec.log_x && x <= 0) || (spec.log_y && v.mean <= 0)) {
        notes.push_back(fmt::format("{} at {} = {}: mean {:.4g} left out (no place on the axes)", s.algorithm,
                                    spec.x, g.rows[i].label, v.mean));
        continue;
      }
      const double half =
          std::isnan(v.sd) ? 0 : kStandardErrors * v.sd / std::sqrt(static_cast<double>(v.trials));
      const double low = spec.log_y && v.mean - half <= 0 ? v.mean : v.mean - half;
      s.points.push_back({x, v.mean, low, v.mean + half, v.trials});
    }
    if (!s.points.empty()) series.push_back(std::move(s));
  }
  return series;
}

// The theorem's rate at each x, scaled so that it passes through the first series' first point.
void add_reference(FigureData& f, const GroupedValues& g, const TheoremList& theorems) {
  if (f.spec.theorem.empty()) return;
  if (f.series.empty()) {
    f.notes.push_back(
        fmt::format("reference line of {} omitted: no point to scale it through", f.spec.theorem));
    return;
  }
  try {
    const auto& theorem = find_theorem(theorems, f.spec.theorem);
    std::vector<std::pair<double, double>> rates;
    for (const auto& row : g.rows)
      if (!std::isnan(row.value)) rates.emplace_back(row.value, theorem.rate(row.cell_params));
    const auto& first = f.series.front().points.front();
    const auto at_first =
        std::find_if(rates.begin(), rates.end(), [&](const auto& r) { return r.first == first.x; });
    if (at_first == rates.end() || !(at_first->second > 0) || !std::isfinite(at_first->second))
      throw InvalidArgument("its rate is not positive at the first point");
    const double scale = first.y / at_first->second;
    for (const auto& [x, rate] : rates)
      if (std::isfinite(rate) && rate > 0) f.reference.emplace_back(x, scale * rate);
    f.reference_label = fmt::format("rate of {} (scaled)", theorem.id);
  } catch (const std::exception& e) {
    f.reference.clear();
    f.notes.push_back(fmt::format("reference line of {} omitted: {}", f.spec.theorem, e.what()));
  }
}

// A gnuplot string literal in double quotes.
std::string gp_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

std::string pgf_axis(const FigureSpec& spec) {
  if (spec.log_x && spec.log_y) return "loglogaxis";
  if (spec.log_x) return "semilogxaxis";
  return spec.log_y ? "semilogyaxis" : "axis";
}

}  // namespace

void validate(const FigureSpec& spec) {
  if (spec.y.empty()) throw InvalidArgument(fmt::format("a figure against '{}' needs a metric 'y'", spec.x));
}

FigureData figure_data(const ResultSet& results, const FigureSpec& spec, const TheoremList& theorems) {
  validate(spec);
  FigureData f;
  f.spec = spec;
  f.name = file_stem(fmt::format("{}-vs-{}", spec.y, spec.x));
  const GroupedValues g = group_values(results, spec.x, "algorithm", spec.y);
  f.series = series_of(g, spec, f.notes);
  if (!g.pooled.empty())
    f.notes.push_back(fmt::format("each point pools the cells that differ in {}", fmt::join(g.pooled, ", ")));
  add_reference(f, g, theorems);
  return f;
}

std::string gnuplot_script(const FigureData& f, const std::string& png, const std::string& svg) {
  std::string s = "# dpbounds report figure; data inline. Run: gnuplot <this file>\n";
  s += "set grid\nset key outside right top\nset bars small\n";
  if (f.spec.log_x) s += "set logscale x\n";
  if (f.spec.log_y) s += "set logscale y\n";
  s += fmt::format("set xlabel {}\nset ylabel {}\n", gp_quoted(f.spec.x), gp_quoted(f.spec.y));
  std::vector<std::string> plots;
  for (std::size_t i = 0; i < f.series.size(); ++i) {
    s += fmt::format("$series{} << EOD\n", i);
    for (const auto& p : f.series[i].points)
      s += fmt::format("{:.17g} {:.17g} {:.17g} {:.17g}\n", p.x, p.y, p.low, p.high);
    s += "EOD\n";
    plots.push_back(fmt::format("$series{} using 1:2:3:4 with yerrorlines title {}", i,
                                gp_quoted(f.series[i].algorithm)));
  }
  if (!f.reference.empty()) {
    s += "$reference << EOD\n";
    for (const auto& [x, y] : f.reference) s += fmt::format("{:.17g} {:.17g}\n", x, y);
    s += "EOD\n";
    plots.push_back(fmt::format("$reference using 1:2 with lines dashtype 2 linecolor rgb \"black\" title {}",
                                gp_quoted(f.reference_label)));
  }
  const std::string plot =
      plots.empty() ? "plot NaN notitle" : fmt::format("plot {}", fmt::join(plots, ", \\\n     "));
  s +=
      fmt::format("set terminal pngcairo size 900,600 noenhanced\nset output {}\n{}\n", gp_quoted(png), plot);
  s += fmt::format("set terminal svg size 900,600 noenhanced\nset output {}\nreplot\nunset output\n",
                   gp_quoted(svg));
  return s;
}

std::string pgfplots_document(const FigureData& f) {
  std::string s =
      "\\documentclass{standalone}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.16}\n"
      "\\begin{document}\n\\begin{tikzpicture}\n";
  s += fmt::format(
      "\\begin{{{}}}[xlabel={{{}}}, ylabel={{{}}}, legend pos=outer north east, "
      "legend cell align=left, grid=major]\n",
      pgf_axis(f.spec), latex_escape(f.spec.x), latex_escape(f.spec.y));
  for (const auto& series : f.series) {
    s += "\\addplot+[error bars/.cd, y dir=both, y explicit] coordinates {\n";
    for (const auto& p : series.points)
      s += fmt::format("  ({:.10g}, {:.10g}) += (0, {:.10g}) -= (0, {:.10g})\n", p.x, p.y, p.high - p.y,
                       p.y - p.low);
    s += fmt::format("}};\n\\addlegendentry{{{}}}\n", latex_escape(series.algorithm));
  }
  if (!f.reference.empty()) {
    s += "\\addplot[dashed, black, no markers] coordinates {\n";
    for (const auto& [x, y] : f.reference) s += fmt::format("  ({:.10g}, {:.10g})\n", x, y);
    s += fmt::format("}};\n\\addlegendentry{{{}}}\n", latex_escape(f.reference_label));
  }
  s += fmt::format("\\end{{{}}}\n\\end{{tikzpicture}}\n\\end{{document}}\n", pgf_axis(f.spec));
  return s;
}

}  // namespace dpb::verify
