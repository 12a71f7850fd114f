#pragma once
// A report table (DESIGN.md §5 "Reports"): one metric, rows and columns from the TableSpec, each
// entry "mean ± sd" or "median [q25, q75]" over the trials, as Markdown, booktabs LaTeX and CSV.
#include <map>
#include <string>
#include <vector>

#include "verify/report/report_spec.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

struct RenderedTable {
  std::string name;  // file stem under tables/
  std::string caption;
  std::string md, tex, csv;
};

// The statistics a table shows: mean_ci (the default), mean_sd, median_iqr.
const std::vector<std::string>& table_stat_names();

// Throws dpb::InvalidArgument unless spec.stat is one of table_stat_names().
void validate(const TableSpec& spec);

// The CSV is long-form and carries every summary (trials, mean, sd, median, q25, q75) whatever
// spec.stat asks, so a reader can re-plot without the database.
// Algorithms, parameters and the metric appear by their display names (display_names.hpp), `names`
// holding the experiment's own.
RenderedTable render_table(const ResultSet& results, const TableSpec& spec, const std::string& metric,
                           const std::map<std::string, std::string>& names = {});

}  // namespace dpb::verify
