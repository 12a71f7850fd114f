#pragma once
// How every benchmark times and summarises: CPU time of the calling thread, medians, and Google Benchmark's
// main() followed by the bench's own summary.
#include <functional>
#include <vector>

namespace dpb::bench {

// CPU time of the calling thread: on a shared machine it counts the work, not the wait for a core.
// Trials are single-threaded (EIGEN_DONT_PARALLELIZE), so it is their cost.
double thread_cpu_seconds();

// The median of `values` (of an even count, the upper of the middle two). `values` must not be empty.
double median(std::vector<double> values);

// Median CPU time of f() over at least `min_runs` runs and `min_seconds` in all.
double median_seconds(const std::function<void()>& f, int min_runs = 3, double min_seconds = 0.2);

// Google Benchmark's main (its flags: --benchmark_filter=... and the rest), then `summary`: 1 on an
// unrecognised argument, else 0. Freed memory is kept in the process, as in `dpbounds` (core/memory.hpp).
int run_benchmarks(int argc, char** argv, const std::function<void()>& summary);

}  // namespace dpb::bench
