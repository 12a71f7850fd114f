#pragma once
// A run watched through the test-only seam alg::LedgerProbe: what every mechanism saw and released, in order, and
// optionally the releases of another run fed back in ("replay"), so that a run on D' sees the history of a run on
// D and each of its mechanisms meets D''s statistic at D's state. The sensitivity probe compares the two runs'
// statistics; the entry audit their releases.
#include <cstdint>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/registry.hpp"
#include "core/rng.hpp"

namespace dpb::verify {

struct Observation {
  alg::LedgerEntry entry;
  std::vector<double> statistic;
  std::vector<std::int64_t> keys;
  std::vector<double> drawn;    // the release as the mechanism drew it
  std::vector<double> release;  // what the run went on with: `drawn`, or the replayed run's release
  alg::ProbedRelease kind = alg::ProbedRelease::drawn;
};

// Runs `estimator` on `in` with `rng` and returns what its mechanisms saw. With `replay`, each release is replaced
// by the one at the same position of the replayed run while the two runs' entries agree (from the first step that
// differs on, the histories part and nothing is replaced).
std::vector<Observation> run_recorded(const alg::Estimator& estimator, const alg::Input& in, core::Rng& rng,
                                      const std::vector<Observation>* replay = nullptr);

}  // namespace dpb::verify
