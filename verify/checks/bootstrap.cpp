#include "verify/checks/bootstrap.hpp"

#include <fmt/format.h>
#include <boost/random/uniform_int_distribution.hpp>

#include "core/errors.hpp"
#include "verify/checks/sample_statistics.hpp"

namespace dpb::verify {

core::Rng BootstrapStreams::stream(std::size_t cell, std::size_t resample) const {
  return core::Rng(seed, core::stream_id(experiment, cell, label, resample, "bootstrap"));
}

std::vector<double> resample(const std::vector<double>& values, core::Rng& rng) {
  if (values.empty()) throw InvalidArgument("cannot resample an empty sample");
  // Boost's distribution, unlike std::uniform_int_distribution, gives the same draws on every platform.
  boost::random::uniform_int_distribution<std::size_t> index(0, values.size() - 1);
  std::vector<double> drawn(values.size());
  for (auto& v : drawn) v = values[index(rng)];
  return drawn;
}

std::pair<double, double> percentile_interval(const std::vector<double>& draws, double confidence) {
  if (!(confidence > 0 && confidence < 1))
    throw InvalidArgument(fmt::format("a confidence level must lie in (0, 1), got {}", confidence));
  return {sample_quantile(draws, (1 - confidence) / 2), sample_quantile(draws, (1 + confidence) / 2)};
}

std::pair<double, double> statistic_interval(const std::vector<double>& values, const BootstrapStreams& streams,
                                             std::size_t cell, int resamples, double confidence,
                                             const CellStatistic& statistic) {
  std::vector<double> draws;
  for (int b = 0; b < resamples; ++b) {
    core::Rng rng = streams.stream(cell, static_cast<std::size_t>(b));
    const std::vector<double> drawn = resample(values, rng);
    draws.push_back(statistic ? statistic(drawn) : sample_mean(drawn));
  }
  return percentile_interval(draws, confidence);
}

}  // namespace dpb::verify
