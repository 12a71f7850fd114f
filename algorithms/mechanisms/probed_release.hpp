#pragma once
// The one place a mechanism that noises a vector or matrix shows its release to a sensitivity probe
// (ledger.hpp, LedgerProbe).
#include <Eigen/Dense>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"

namespace dpb::alg {

// Adds noise to `value` by `add_noise(value)`; while a probe is active on this thread it is shown the
// statistic and the release (column-major), and may replace the release.
template <class AddNoise>
void probed_release(Eigen::Ref<Eigen::MatrixXd> value, const LedgerEntry& entry, AddNoise&& add_noise) {
  LedgerProbe* probe = active_probe();
  if (!probe) {
    add_noise(value);
    return;
  }
  const auto flatten = [](const Eigen::MatrixXd& m) { return std::vector<double>(m.data(), m.data() + m.size()); };
  const std::vector<double> statistic = flatten(value);
  add_noise(value);
  std::vector<double> release = flatten(value);
  probe->observe(entry, statistic, {}, release, ProbedRelease::drawn);
  value = Eigen::Map<const Eigen::MatrixXd>(release.data(), value.rows(), value.cols());
}

}  // namespace dpb::alg
