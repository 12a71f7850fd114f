#include "bench/support/timing.hpp"

#include <benchmark/benchmark.h>
#include <algorithm>
#include <ctime>

#include "core/memory.hpp"

namespace dpb::bench {

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double median(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

double median_seconds(const std::function<void()>& f, int min_runs, double min_seconds) {
  std::vector<double> times;
  double total = 0;
  while (static_cast<int>(times.size()) < min_runs || total < min_seconds) {
    const double start = thread_cpu_seconds();
    f();
    times.push_back(thread_cpu_seconds() - start);
    total += times.back();
  }
  return median(std::move(times));
}

int run_benchmarks(int argc, char** argv, const std::function<void()>& summary) {
  core::retain_freed_memory();  // as the dpbounds executable that runs the trials does
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  summary();
  return 0;
}

}  // namespace dpb::bench
