#pragma once
// Wall-clock timing for the benchmarks: the median of repeated runs, and the ratio table every
// benchmark prints (algorithm time over the time to generate the trial's data).
#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <string>
#include <vector>

namespace dpb::bench {

// Median wall time in seconds of `repeats` calls of f().
template <class F>
double median_seconds(F&& f, int repeats = 5) {
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(times.begin(), times.begin() + repeats / 2, times.end());
  return times[repeats / 2];
}

// One row: "<name>  <seconds>  <ratio to floor>  <PASS/OVER budget>".
inline void print_ratio(const std::string& name, double seconds, double floor_seconds, double budget) {
  const double ratio = seconds / floor_seconds;
  fmt::print("{:<40} {:>10.4f} s  {:>6.2f}x floor  (budget {:.1f}x: {})\n", name, seconds, ratio, budget,
             ratio <= budget ? "within" : "OVER");
}

}  // namespace dpb::bench
