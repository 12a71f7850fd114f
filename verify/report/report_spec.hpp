#pragma once
// What a report contains (DESIGN.md §5 "Reports"): the experiment YAML's `report:` section.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "verify/report/selection.hpp"

namespace dpb::verify {

struct TableSpec {
  std::string rows = "n";             // a cell parameter, or "algorithm"
  std::string columns = "algorithm";  // "algorithm", or a cell parameter
  std::string stat = "mean_ci";       // mean_ci (95% Student-t interval) | mean_sd | median_iqr
  std::vector<std::string> metrics;   // empty: every metric
  // `best: min | max`: the best algorithm's entry of each cell in bold (min for errors, max for a score
  // such as explained_variance); "" for none. Needs "algorithm" as the rows or the columns.
  std::string best;
};

struct FigureSpec {
  std::string x = "n";  // the cell parameter on the x axis
  std::string y;        // the metric on the y axis
  bool log_x = true, log_y = true;
  std::string theorem;  // optional reference-line theorem id
  bool boxplot = false;  // `style: boxplot`: one box per x and algorithm (quartiles, Tukey whiskers)
};

struct ReportSpec {
  // Algorithm labels the experiment names itself (an algorithm's `label:`), for every table and legend.
  std::map<std::string, std::string> algorithm_names;
  std::vector<TableSpec> tables;
  std::vector<FigureSpec> figures;
  std::optional<SelectionSpec> selection;  // `select:`: rank the algorithms as tuning candidates
};

}  // namespace dpb::verify
