#pragma once
// Summary statistics of a cell's trial values, shared by the checks and the report tables.
#include <vector>

namespace dpb::verify {

// Each throws dpb::InvalidArgument on an empty sample (sd: fewer than two values).
double sample_mean(const std::vector<double>& x);
double sample_sd(const std::vector<double>& x);  // with the n - 1 denominator
// The p-quantile by linear interpolation between order statistics (Hyndman–Fan type 7, R's and
// NumPy's default): position (n - 1) p in the sorted sample. p must lie in [0, 1].
double sample_quantile(std::vector<double> x, double p);

// Least-squares slope of y on x; throws dpb::InvalidArgument unless x has two distinct values.
double least_squares_slope(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace dpb::verify
