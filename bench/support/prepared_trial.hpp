#pragma once
// One trial's data for a benchmark case and the floor it is measured against (DESIGN.md §7): the time
// to generate that data, and for the covariance family also to form the sample covariance and compute
// its top k eigenpairs (one eigendecomposition of what PCA needs). The data is drawn once and reused by every case of the same model and
// size (benchmarks are registered in that order), so the cache holds one model and size at a time.
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
  double floor_seconds = 0;  // median over repeated generations
};

// Throws dpb::InvalidArgument when the model or the algorithm rejects the size.
const PreparedTrial& prepared_trial(const AlgorithmCase& c, const Size& size);

}  // namespace dpb::bench
