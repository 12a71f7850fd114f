#pragma once
// Bootstrap over trials (DESIGN.md §5): every resample draws, within each cell, as many trials as
// the cell has, with replacement. Streams are counter-based (core::Rng), keyed by the master seed and
// by (experiment, cell, check label, resample index), so a resample never depends on the order in
// which checks or cells are processed.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.hpp"

namespace dpb::verify {

struct BootstrapStreams {
  std::uint64_t seed = 0;
  std::string experiment;
  std::string label;  // identifies the check, e.g. "rate|thm|alg|metric|n"
  core::Rng stream(std::size_t cell, std::size_t resample) const;
};

// `values` resampled with replacement, same size.
std::vector<double> resample(const std::vector<double>& values, core::Rng& rng);

// The two-sided percentile interval at `confidence` of bootstrap `draws` (type-7 quantiles at
// (1 - confidence) / 2 and (1 + confidence) / 2).
std::pair<double, double> percentile_interval(const std::vector<double>& draws, double confidence);

// The percentile interval at `confidence` of `statistic` of a cell's `values` (the mean when none is
// given), over `resamples` resamples drawn from the cell's streams.
using CellStatistic = std::function<double(const std::vector<double>&)>;
std::pair<double, double> statistic_interval(const std::vector<double>& values, const BootstrapStreams& streams,
                                             std::size_t cell, int resamples, double confidence,
                                             const CellStatistic& statistic = {});

}  // namespace dpb::verify
