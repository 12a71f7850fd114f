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

// CPU time of the calling thread: on a shared machine it counts the work, not the wait for a core.
// Trials are single-threaded (EIGEN_DONT_PARALLELIZE), so it is their cost.
double thread_cpu_seconds();

// Median CPU time of f() over at least `min_runs` runs and `min_seconds` in all.
double median_seconds(const std::function<void()>& f, int min_runs = 3, double min_seconds = 0.2);

}  // namespace dpb::bench
