#include "verify/report/figures.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/errors.hpp"
#include "verify/theorems/bound_evaluation.hpp"
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
      FigurePoint point;
      point.x = x, point.y = v.mean, point.low = low, point.high = v.mean + half, point.trials = v.trials;
      point.median = v.median, point.q25 = v.q25, point.q75 = v.q75;
      point.whisker_low = point.q25, point.whisker_high = point.q75;
      const double reach = 1.5 * (v.q75 - v.q25);
      for (const double value : found->second) {
        if (value >= v.q25 - reach) point.whisker_low = std::min(point.whisker_low, value);
        if (value <= v.q75 + reach) point.whisker_high = std::max(point.whisker_high, value);
      }
      point.x_label = g.rows[i].label;
      s.points.push_back(point);
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
    for (const auto& p : s.points)
      f.spec.boxplot ? e.add(p.x, p.whisker_low, p.whisker_high) : e.add(p.x, p.low, p.high);
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

namespace {

// A boxplot's categories: the x values in ascending order, each at position 1, 2, ...
std::vector<std::pair<double, std::string>> categories(const FigureData& f) {
  std::map<double, std::string> xs;
  for (const auto& s : f.series)
    for (const auto& p : s.points) xs.emplace(p.x, p.x_label);
  return {xs.begin(), xs.end()};
}

// Where series j's box at category `index` (0-based) stands: the series side by side around the
// category's position, together 0.8 wide.
double box_position(std::size_t index, std::size_t j, std::size_t series) {
  const double width = 0.8 / static_cast<double>(series);
  return static_cast<double>(index + 1) + (static_cast<double>(j) - (static_cast<double>(series) - 1) / 2) * width;
}

std::size_t category_index(const std::vector<std::pair<double, std::string>>& cats, double x) {
  return static_cast<std::size_t>(
      std::find_if(cats.begin(), cats.end(), [&](const auto& c) { return c.first == x; }) - cats.begin());
}

const std::vector<std::string>& box_colours() {
  static const std::vector<std::string> colours = {"blue!50",  "red!50",    "brown!60", "gray!50",
                                                   "teal!50",  "orange!60", "violet!50", "olive!60"};
  return colours;
}

std::string pgfplots_boxplot(const FigureData& f, const std::string& caption) {
  const auto cats = categories(f);
  std::vector<std::string> ticks, labels;
  for (std::size_t i = 0; i < cats.size(); ++i) {
    ticks.push_back(fmt::format("{}", i + 1));
    labels.push_back(latex_escape(cats[i].second));
  }
  std::string range;
  if (const Extent e = extent_of(f); e.x_min <= e.x_max) {
    const auto [y0, y1] = limits(e.y_min, e.y_max, f.spec.log_y);
    range = fmt::format("ymin={:.6g}, ymax={:.6g}, ", y0, y1);
  }
  std::string s = fmt::format(
      "% {}\n% \\input this tikzpicture into a figure; {}-standalone.tex compiles it on its own.\n"
      "% needs \\usepackage{{pgfplots}}\n% needs \\usepgfplotslibrary{{statistics}}\n"
      "% needs \\pgfplotsset{{compat=1.16}}\n\\begin{{tikzpicture}}\n"
      "\\begin{{{}}}[width=0.8\\linewidth, xmin=0.5, xmax={:.1f}, {}xtick={{{}}}, xticklabels={{{}}}, "
      "xlabel={{{}}}, ylabel={{{}}}, legend cell align=left, legend style={{font=\\footnotesize, "
      "at={{(0.5,-0.18)}}, anchor=north}}, ymajorgrids, boxplot/draw direction=y]\n",
      caption, f.name, f.spec.log_y ? "semilogyaxis" : "axis", static_cast<double>(cats.size()) + 0.5, range,
      fmt::join(ticks, ","), fmt::join(labels, ","), parameter_display(f.spec.x).latex,
      metric_display(f.spec.y).latex);
  const double width = 0.8 / static_cast<double>(std::max<std::size_t>(f.series.size(), 1));
  for (std::size_t j = 0; j < f.series.size(); ++j) {
    const std::string& colour = box_colours()[j % box_colours().size()];
    s += fmt::format("\\addlegendimage{{area legend, draw=black, fill={}}}\n\\addlegendentry{{{}}}\n", colour,
                     f.series[j].name.latex);
    for (const auto& p : f.series[j].points)
      s += fmt::format(
          "\\addplot+[forget plot, mark=none, draw=black, fill={}, boxplot prepared={{draw position={:.4g}, "
          "box extend={:.3g}, lower whisker={:.10g}, lower quartile={:.10g}, median={:.10g}, upper quartile={:.10g}, "
          "upper whisker={:.10g}}}] coordinates {{}};\n",
          colour, box_position(category_index(cats, p.x), j, f.series.size()), 0.8 * width, p.whisker_low, p.q25,
          p.median, p.q75, p.whisker_high);
  }
  s += fmt::format("\\end{{{}}}\n\\end{{tikzpicture}}\n", f.spec.log_y ? "semilogyaxis" : "axis");
  return s;
}

}  // namespace

std::string figure_caption(const FigureData& f) {
  if (f.spec.boxplot) {
    std::string caption = fmt::format("{} against {}: one box per cell and algorithm, from the first to the third "
                                      "quartile of the trials, the median inside, whiskers to the most extreme "
                                      "trial within 1.5 interquartile ranges of the box.",
                                      metric_display(f.spec.y).text, parameter_display(f.spec.x).text);
    for (const auto& note : f.claim_notes) caption += " " + note + ".";
    return caption;
  }
  std::string caption = fmt::format("{} against {}: mean over the trials of each cell, error bars {} standard "
                                    "errors either side (about a 95% interval for the mean)",
                                    metric_display(f.spec.y).text, parameter_display(f.spec.x).text, kStandardErrors);
  if (!f.reference.empty()) caption += fmt::format("; dashed: {}", f.reference_label);
  caption += ".";
  for (const auto& note : f.claim_notes) caption += " " + note + ".";
  return caption;
}

std::string pgfplots_picture(const FigureData& f) {
  if (f.spec.boxplot) return pgfplots_boxplot(f, figure_caption(f));
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
      "\\documentclass{{standalone}}\n\\usepackage{{pgfplots}}\n\\usepgfplotslibrary{{statistics}}\n"
      "\\pgfplotsset{{compat=1.16}}\n"
      "\\begin{{document}}\n\\input{{{}.tex}}\n\\end{{document}}\n",
      f.name);
}

std::string gnuplot_script(const FigureData& f, const std::string& png, const std::string& svg) {
  std::string s = "# dpbounds report figure; data inline. Run: gnuplot <this file>\n";
  s += "set grid\nset key below\nset bars small\n";
  if (f.spec.log_x) s += "set logscale x\n";
  if (f.spec.log_y) s += "set logscale y\n";
  // The caption goes in a comment: a title line as long would run off the picture.
  s += fmt::format("# caption: {}\nset xlabel {}\nset ylabel {}\nset title {}\n", figure_caption(f),
                   gp_quoted(parameter_display(f.spec.x).text), gp_quoted(metric_display(f.spec.y).text),
                   gp_quoted(fmt::format("{} against {}", metric_display(f.spec.y).text, parameter_display(f.spec.x).text)));
  if (const Extent e = extent_of(f); e.x_min <= e.x_max && !f.spec.boxplot) {
    const auto [x0, x1] = limits(e.x_min, e.x_max, f.spec.log_x);
    const auto [y0, y1] = limits(e.y_min, e.y_max, f.spec.log_y);
    s += fmt::format("set xrange [{:.6g}:{:.6g}]\nset yrange [{:.6g}:{:.6g}]\n", x0, x1, y0, y1);
  }
  std::vector<std::string> plots;
  if (f.spec.boxplot) {
    const auto cats = categories(f);
    std::vector<std::string> tics;
    for (std::size_t i = 0; i < cats.size(); ++i) tics.push_back(fmt::format("{} {}", gp_quoted(cats[i].second), i + 1));
    s += fmt::format("unset logscale x\nset xtics ({})\nset xrange [0.5:{:.1f}]\nset style fill solid 0.5 border -1\n"
                     "set boxwidth {:.3g} absolute\n",
                     fmt::join(tics, ", "), static_cast<double>(cats.size()) + 0.5,
                     0.64 / static_cast<double>(std::max<std::size_t>(f.series.size(), 1)));
    for (std::size_t j = 0; j < f.series.size(); ++j) {
      s += fmt::format("$box{} << EOD\n", j);
      for (const auto& p : f.series[j].points)
        s += fmt::format("{:.6g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}\n",
                         box_position(category_index(cats, p.x), j, f.series.size()), p.whisker_low, p.q25,
                         p.median, p.q75, p.whisker_high);
      s += "EOD\n";
      plots.push_back(fmt::format("$box{0} using 1:3:2:6:5 with candlesticks title {1} whiskerbars 0.5, "
                                  "$box{0} using 1:4:4:4:4 with candlesticks linecolor rgb \"black\" notitle",
                                  j, gp_quoted(f.series[j].name.text)));
    }
  }
  for (std::size_t i = 0; i < f.series.size() && !f.spec.boxplot; ++i) {
    s += fmt::format("$series{} << EOD\n", i);
    for (const auto& p : f.series[i].points)
      s += fmt::format("{:.17g} {:.17g} {:.17g} {:.17g}\n", p.x, p.y, p.low, p.high);
    s += "EOD\n";
    plots.push_back(fmt::format("$series{} using 1:2:3:4 with yerrorlines title {}", i,
                                gp_quoted(f.series[i].name.text)));
  }
  if (!f.reference.empty() && !f.spec.boxplot) {
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

}  // namespace dpb::verify
