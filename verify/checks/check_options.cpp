#include "verify/checks/check_options.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace dpb::verify {

void validate(const CheckOptions& o) {
  auto require = [](bool ok, const std::string& message) {
    if (!ok) throw InvalidArgument(message);
  };
  require(o.bootstrap_resamples >= 100,
          fmt::format("bootstrap_resamples must be >= 100 for a percentile interval, got {}",
                      o.bootstrap_resamples));
  require(o.confidence > 0 && o.confidence < 1,
          fmt::format("confidence must lie in (0, 1), got {}", o.confidence));
  require(o.quantile_trials_factor > 0,
          fmt::format("quantile_trials_factor must be > 0, got {}", o.quantile_trials_factor));
  require(o.min_trials_per_cell >= 2,
          fmt::format("min_trials_per_cell must be >= 2, got {}", o.min_trials_per_cell));
  require(o.min_cells >= 2,
          fmt::format("min_cells must be >= 2 (a slope needs two points), got {}", o.min_cells));
  require(o.consistency_step > 1, fmt::format("consistency_step must be > 1, got {}", o.consistency_step));
  require(o.consistency_steps >= 2,
          fmt::format("consistency_steps must be >= 2, got {}", o.consistency_steps));
}

}  // namespace dpb::verify
