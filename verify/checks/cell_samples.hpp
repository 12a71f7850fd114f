#pragma once
// One algorithm's values of one metric, grouped by grid cell: what every check and table starts from.
#include <cstddef>
#include <string>
#include <vector>

#include "bounds/theorem.hpp"
#include "verify/store/results.hpp"

namespace dpb::verify {

struct CellSample {
  std::size_t cell = 0;
  bounds::Params params;       // the cell's TrialRow::cell_params
  std::vector<double> values;  // finite metric values of the successful trials, in trial order
  std::size_t failed = 0;      // trials with an error, or without a finite value of the metric
};

// The cells where `algorithm` ran, in increasing cell index; a cell whose trials all failed is kept
// (values empty) so a check can say so.
std::vector<CellSample> cell_samples(const ResultSet& results, const std::string& algorithm,
                                     const std::string& metric);

}  // namespace dpb::verify
