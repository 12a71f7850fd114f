#pragma once
// A report figure (DESIGN.md §5 "Reports"): one metric against a cell parameter, one series per
// algorithm (the mean, with bars of ± 2 standard errors — about a 95% interval for the mean), and
// optionally a theorem's rate as a reference line scaled through the first point of an algorithm it
// bounds. Rendered as a gnuplot script (PNG and SVG) and as a pgfplots tikzpicture with a standalone
// wrapper.
#include <map>
#include <string>
#include <vector>

#include "verify/report/display_names.hpp"
#include "verify/report/report_spec.hpp"
#include "verify/store/results.hpp"
#include "verify/theorems/theorem_table.hpp"

namespace dpb::verify {

struct FigurePoint {
  double x = 0, y = 0;       // x: the cell parameter; y: the mean over trials
  double low = 0, high = 0;  // y ± 2 sd / sqrt(trials); low = y where it would leave a log axis
  std::size_t trials = 0;
  // The box of a boxplot: quartiles (type 7) and Tukey's whiskers, the most extreme values within 1.5
  // interquartile ranges of the box.
  double median = 0, q25 = 0, q75 = 0, whisker_low = 0, whisker_high = 0;
  std::string x_label;  // the x value as the grid writes it (a boxplot's category)
};

struct FigureSeries {
  std::string algorithm;  // the label of its rows
  DisplayName name;       // what the legend shows
  std::vector<FigurePoint> points;  // ascending x
};

struct FigureData {
  std::string name;  // file stem under figures/
  FigureSpec spec;
  std::vector<FigureSeries> series;
  std::vector<std::pair<double, double>> reference;  // (x, scaled rate); empty without a theorem
  std::string reference_label;
  std::vector<std::string> notes;  // what was left out and why (points off a log axis, the reference line)
  // Claims on this figure's metric that did not reproduce, each with its documented reason (a check's
  // `note:`); the caption carries them.
  std::vector<std::string> claim_notes;
};

// Throws dpb::InvalidArgument when spec.y is empty.
void validate(const FigureSpec& spec);

// The reference theorem is looked up in `theorems`; an unknown id or a rate that cannot be evaluated
// leaves the line out with a note, never an error.
// Series are named by display_names.hpp, `names` holding the experiment's own.
FigureData figure_data(const ResultSet& results, const FigureSpec& spec, const TheoremList& theorems,
                       const std::map<std::string, std::string>& names = {});

// A gnuplot script drawing `figure` into `png` and `svg` (file names relative to where gnuplot runs).
std::string gnuplot_script(const FigureData& figure, const std::string& png, const std::string& svg);
// What the figure shows, for a caption: the statistic, the error bars, the reference line.
std::string figure_caption(const FigureData& figure);
// A tikzpicture (pgfplots) a paper \input's into its own figure; its `% needs` lines name the preamble.
std::string pgfplots_picture(const FigureData& figure);
// A standalone document that \input's `<name>.tex` from beside it, for a quick PDF.
std::string pgfplots_standalone(const FigureData& figure);

}  // namespace dpb::verify
