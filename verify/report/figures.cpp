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
                                    const std::map<std::string, std::string>& names, std::vector<std::string>& notes) {
  std::vector<FigureSeries> series;
  for (std::size_t j = 0; j < g.columns.size(); ++j) {
    FigureSeries s{g.columns[j].label, algorithm_display(g.columns[j].label, names), {}};
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

// The registry id of a series label: "cai2024.gaussian_mechanism[C2=3]" names cai2024.gaussian_mechanism.
std::string algorithm_id(const std::string& label) { return label.substr(0, label.find('[')); }

// The theorem's rate at each x, scaled so that it passes through the first point of the series of an
// algorithm the theorem bounds (the first series, with a note, when none is drawn).
void add_reference(FigureData& f, const GroupedValues& g, const TheoremList& theorems) {
  if (f.spec.theorem.empty()) return;
  if (f.series.empty()) {
    f.notes.push_back(
        fmt::format("reference line of {} omitted: no point to scale it through", f.spec.theorem));
    return;
  }
  try {
    const auto& theorem = find_theorem(theorems, f.spec.theorem);
    const auto bounded = std::find_if(f.series.begin(), f.series.end(), [&](const FigureSeries& s) {
      return std::find(theorem.applies.begin(), theorem.applies.end(), algorithm_id(s.algorithm)) !=
             theorem.applies.end();
    });
    const FigureSeries& anchor = bounded == f.series.end() ? f.series.front() : *bounded;
    if (bounded == f.series.end())
      f.notes.push_back(fmt::format("reference line of {} drawn through {}: no series of an algorithm it bounds ({})",
                                    theorem.id, anchor.name.text, fmt::join(theorem.applies, ", ")));
    std::vector<std::pair<double, double>> rates;
    for (const auto& row : g.rows)
      if (!std::isnan(row.value)) rates.emplace_back(row.value, theorem.rate(row.cell_params));
    const auto& first = anchor.points.front();
    const auto at_first =
        std::find_if(rates.begin(), rates.end(), [&](const auto& r) { return r.first == first.x; });
    if (at_first == rates.end() || !(at_first->second > 0) || !std::isfinite(at_first->second))
      throw InvalidArgument("its rate is not positive at the first point");
    const double scale = first.y / at_first->second;
    for (const auto& [x, rate] : rates)
      if (std::isfinite(rate) && rate > 0) f.reference.emplace_back(x, scale * rate);
    f.reference_label = fmt::format("rate of {} (through {})", theorem.id, anchor.name.text);
  } catch (const std::exception& e) {
    f.reference.clear();
    f.notes.push_back(fmt::format("reference line of {} omitted: {}", f.spec.theorem, e.what()));
  }
}

// The smallest and largest x and y drawn (error bars and reference line included).
struct Extent {
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  void add(double x, double low, double high) {
    x_min = std::min(x_min, x), x_max = std::max(x_max, x);
    y_min = std::min(y_min, low), y_max = std::max(y_max, high);
  }
};

Extent extent_of(const FigureData& f) {
  Extent e;
  for (const auto& s : f.series)
    for (const auto& p : s.points) e.add(p.x, p.low, p.high);
  for (const auto& [x, y] : f.reference) e.add(x, y, y);
  return e;
}

// Axis limits a little beyond the data (5% of the range, or of the decades on a log axis), so that no
// empty decade is drawn.
std::pair<double, double> limits(double low, double high, bool log) {
  if (log) {
    const double margin = std::max(0.05 * std::log10(high / low), 0.02);
    return {low / std::pow(10.0, margin), high * std::pow(10.0, margin)};
  }
  const double margin = high > low ? 0.05 * (high - low) : std::max(0.05 * std::abs(high), 0.05);
  return {low - margin, high + margin};
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

FigureData figure_data(const ResultSet& results, const FigureSpec& spec, const TheoremList& theorems,
                       const std::map<std::string, std::string>& names) {
  validate(spec);
  FigureData f;
  f.spec = spec;
  f.name = file_stem(fmt::format("{}-vs-{}", spec.y, spec.x));
  const GroupedValues g = group_values(results, spec.x, "algorithm", spec.y);
  f.series = series_of(g, spec, names, f.notes);
  if (!g.pooled.empty())
    f.notes.push_back(fmt::format("each point pools the cells that differ in {}", fmt::join(g.pooled, ", ")));
  add_reference(f, g, theorems);
  return f;
}

std::string figure_caption(const FigureData& f);

std::string gnuplot_script(const FigureData& f, const std::string& png, const std::string& svg) {
  std::string s = "# dpbounds report figure; data inline. Run: gnuplot <this file>\n";
  s += "set grid\nset key outside right top\nset bars small\n";
  if (f.spec.log_x) s += "set logscale x\n";
  if (f.spec.log_y) s += "set logscale y\n";
  s += fmt::format("set xlabel {}\nset ylabel {}\nset title {} font \",9\"\n", gp_quoted(parameter_display(f.spec.x).text),
                   gp_quoted(metric_display(f.spec.y).text),
                   gp_quoted(figure_caption(f)));
  if (const Extent e = extent_of(f); e.x_min <= e.x_max) {
    const auto [x0, x1] = limits(e.x_min, e.x_max, f.spec.log_x);
    const auto [y0, y1] = limits(e.y_min, e.y_max, f.spec.log_y);
    s += fmt::format("set xrange [{:.6g}:{:.6g}]\nset yrange [{:.6g}:{:.6g}]\n", x0, x1, y0, y1);
  }
  std::vector<std::string> plots;
  for (std::size_t i = 0; i < f.series.size(); ++i) {
    s += fmt::format("$series{} << EOD\n", i);
    for (const auto& p : f.series[i].points)
      s += fmt::format("{:.17g} {:.17g} {:.17g} {:.17g}\n", p.x, p.y, p.low, p.high);
    s += "EOD\n";
    plots.push_back(fmt::format("$series{} using 1:2:3:4 with yerrorlines title {}", i,
                                gp_quoted(f.series[i].name.text)));
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

std::string figure_caption(const FigureData& f) {
  std::string caption = fmt::format("{} against {}: mean over the trials of each cell, error bars {} standard "
                                    "errors either side (about a 95% interval for the mean)",
                                    metric_display(f.spec.y).text, parameter_display(f.spec.x).text, kStandardErrors);
  if (!f.reference.empty()) caption += fmt::format("; dashed: {}", f.reference_label);
  caption += ".";
  for (const auto& note : f.claim_notes) caption += " " + note + ".";
  return caption;
}

std::string pgfplots_picture(const FigureData& f) {
  std::string s = fmt::format(
      "% {}\n% \\input this tikzpicture into a figure; {}-standalone.tex compiles it on its own.\n"
      "% needs \\usepackage{{pgfplots}}\n% needs \\pgfplotsset{{compat=1.16}}\n\\begin{{tikzpicture}}\n",
      figure_caption(f), f.name);
  std::string range;
  if (const Extent e = extent_of(f); e.x_min <= e.x_max) {
    const auto [x0, x1] = limits(e.x_min, e.x_max, f.spec.log_x);
    const auto [y0, y1] = limits(e.y_min, e.y_max, f.spec.log_y);
    range = fmt::format("xmin={:.6g}, xmax={:.6g}, ymin={:.6g}, ymax={:.6g}, ", x0, x1, y0, y1);
  }
  s += fmt::format(
      "\\begin{{{}}}[width=0.8\\linewidth, xtick=data, log ticks with fixed point, xlabel={{{}}}, ylabel={{{}}}, {}"
      "legend cell align=left, legend style={{font=\\footnotesize, at={{(0.5,-0.18)}}, anchor=north}}, "
      "grid=major]\n",
      pgf_axis(f.spec), parameter_display(f.spec.x).latex, metric_display(f.spec.y).latex, range);
  for (const auto& series : f.series) {
    s += "\\addplot+[error bars/.cd, y dir=both, y explicit] coordinates {\n";
    for (const auto& p : series.points)
      s += fmt::format("  ({:.10g}, {:.10g}) += (0, {:.10g}) -= (0, {:.10g})\n", p.x, p.y, p.high - p.y,
                       p.y - p.low);
    s += fmt::format("}};\n\\addlegendentry{{{}}}\n", series.name.latex);
  }
  if (!f.reference.empty()) {
    s += "\\addplot[dashed, black, no markers] coordinates {\n";
    for (const auto& [x, y] : f.reference) s += fmt::format("  ({:.10g}, {:.10g})\n", x, y);
    s += fmt::format("}};\n\\addlegendentry{{{}}}\n", latex_escape(f.reference_label));
  }
  s += fmt::format("\\end{{{}}}\n\\end{{tikzpicture}}\n", pgf_axis(f.spec));
  return s;
}

std::string pgfplots_standalone(const FigureData& f) {
  return fmt::format(
      "\\documentclass{{standalone}}\n\\usepackage{{pgfplots}}\n\\pgfplotsset{{compat=1.16}}\n"
      "\\begin{{document}}\n\\input{{{}.tex}}\n\\end{{document}}\n",
      f.name);
}

}  // namespace dpb::verify
