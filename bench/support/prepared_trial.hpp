#pragma once
// One trial's data for a benchmark case and the floor it is measured against (DESIGN.md §7): the time
// to generate that data, and for the covariance family also to form the sample covariance and compute
// its top k eigenpairs (one eigendecomposition of what PCA needs). The data is drawn once and reused by every
// case of the same model and size (benchmarks are registered in that order), so the cache holds one model and
// size at a time; the floor is timed anew beside each repetition of a case.
#include <memory>

#include "algorithms/registry.hpp"
#include "bench/support/cases.hpp"
#include "core/models/model.hpp"
#include "verify/runner/trial_input.hpp"

namespace dpb::bench {

struct PreparedTrial {
  std::unique_ptr<core::Model> model;
  verify::TrialData data;
  alg::Input input;
};

// The trial of case c at `size`: the cached data with c's own budget (privacy(c, size)) in its input. The
// reference is valid until the next call. Throws dpb::InvalidArgument when the model or the algorithm rejects
// the size.
const PreparedTrial& prepared_trial(const AlgorithmCase& c, const Size& size);

// The floor of case c at `size` now: the median CPU time of its work over at least 3 runs and 0.2 s. Timed
// beside each repetition, so that a ratio compares two times of the same minute: a shared VM's speed moved by
// up to 30% within the hour, and a floor timed once per size, minutes before some of its cases, moved the
// ratios with it.
double floor_seconds(const AlgorithmCase& c, const PreparedTrial& trial, const Size& size);

}  // namespace dpb::bench
