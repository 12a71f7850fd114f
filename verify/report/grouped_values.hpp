#pragma once
// A metric's trial values grouped by two axes (a cell parameter, or "algorithm"), with the summaries
// tables and figures print. Failed trials and non-finite values are left out and counted.
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "verify/store/results.hpp"

namespace dpb::verify {

struct AxisKey {
  std::string
      label;  // "algorithm": the label itself; a parameter: its value printed with {:g}; "n/a" if absent
  double value = 0;                           // a parameter's value (NaN when absent or for "algorithm")
  std::map<std::string, double> cell_params;  // those of the first row with this key
};

struct GroupedValues {
  // Parameters ascending; algorithms in the order the rows list them (ResultStore::load sorts rows by
  // cell, algorithm, trial, so a report does not depend on which thread finished first).
  std::vector<AxisKey> rows, columns;
  std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> values;  // (row, column) -> values
  std::vector<std::string> pooled;  // cell parameters that differ within some (row, column) group
  std::size_t failed = 0;           // trials left out
};

GroupedValues group_values(const ResultSet& results, const std::string& rows, const std::string& columns,
                           const std::string& metric);

// Every metric name in the results, sorted.
std::vector<std::string> metric_names(const ResultSet& results);

struct ValueSummary {
  std::size_t trials = 0;
  double mean = 0, sd = 0;  // sd is NaN with fewer than two trials
  double median = 0, q25 = 0, q75 = 0;
};
// Throws dpb::InvalidArgument on an empty sample.
ValueSummary summarize(const std::vector<double>& values);

}  // namespace dpb::verify
