// Benchmark (not a test): every registered algorithm at its family's standard sizes (bench/support/
// cases.hpp), CPU time per trial next to its floor (DESIGN.md §7) and its arithmetic floor (x_arith:
// bench/support/machine_peak.hpp), then the worst ratio per algorithm against the target, the fitted
// scaling exponents, and both families beside numpy (the covariance family beside its non-private PCA, the
// Oja family beside its per-sample loops). Google Benchmark's flags apply, e.g.
// --benchmark_filter='dugler2026.tadadpo/n:100000/d:200' or --benchmark_out=rows.json.
#include <benchmark/benchmark.h>

#include <fmt/format.h>
#include <iostream>

#include "algorithms/registry.hpp"
#include "bench/support/cases.hpp"
#include "bench/support/machine_peak.hpp"
#include "bench/support/prepared_trial.hpp"
#include "bench/support/summary.hpp"
#include "bench/support/timing.hpp"
#include "core/rng.hpp"

namespace {

using namespace dpb::bench;

void time_trial(benchmark::State& state, const AlgorithmCase& c, const Size& size) {
  const PreparedTrial* trial = nullptr;
  std::unique_ptr<dpb::alg::Estimator> estimator;
  try {
    trial = &prepared_trial(c, size);
    estimator = dpb::alg::algorithm_registry().make(c.id, c.params(size));
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  std::uint64_t draw = 0;  // each iteration a new trial's noise on the same data
  const double start = thread_cpu_seconds();
  for (auto _ : state) {
    dpb::core::Rng rng(4, ++draw);
    try {
      benchmark::DoNotOptimize(estimator->run(trial->input, rng));
    } catch (const std::exception& e) {  // a size the algorithm cannot run (e.g. k > 1 for liu2022)
      state.SkipWithError(e.what());
      break;
    }
  }
  if (state.error_occurred()) return;
  const double seconds = (thread_cpu_seconds() - start) / double(state.iterations());
  const double floor = floor_seconds(c, *trial, size);  // of this minute (the loop's timing has stopped)
  const Work work = c.work(size);
  const double arithmetic_seconds = arithmetic_floor_seconds(work.flops, work.bytes);
  state.counters["floor_ms"] = floor * 1e3;
  state.counters["x_floor"] = seconds / floor;
  state.counters["x_arith"] = seconds / arithmetic_seconds;
  record_timing(c, size, static_cast<long>(state.iterations()), seconds, floor, arithmetic_seconds);
}

std::string benchmark_name(const AlgorithmCase& c, const Size& size) {
  return c.family == Family::oja ? fmt::format("{}/n:{}/d:{}/k:{}", c.id, size.n, size.d, size.k)
                                 : fmt::format("{}/n:{}/p:{}", c.id, size.n, size.d);
}

// Grouped by model and size so that the cases sharing a trial's data run one after another.
void register_cases() {
  const auto cases = algorithm_cases();
  std::vector<std::string> models;
  for (const auto& c : cases)
    if (std::find(models.begin(), models.end(), c.model + to_string(c.family)) == models.end())
      models.push_back(c.model + to_string(c.family));
  for (const auto& model : models)
    for (const Family family : {Family::oja, Family::covariance})
      for (const Size& size : standard_sizes(family))
        for (const auto& c : cases) {
          if (c.family != family || c.model + to_string(c.family) != model) continue;
          if (!c.k_values.empty() && std::find(c.k_values.begin(), c.k_values.end(), size.k) == c.k_values.end())
            continue;
          benchmark::RegisterBenchmark(benchmark_name(c, size).c_str(), time_trial, c, size)
              ->Unit(benchmark::kMillisecond)
              ->MinTime(0.2)
              ->Repetitions(3)
              ->ReportAggregatesOnly(true);
        }
}

}  // namespace

int main(int argc, char** argv) {
  register_cases();
  return dpb::bench::run_benchmarks(argc, argv, [] {
    print_summary(std::cout);
    print_numpy_comparison(std::cout);
  });
}
