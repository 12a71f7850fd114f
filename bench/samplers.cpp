// Benchmark (not a test): the random-number path (issue "Sampling at the hardware limit"). Bulk
// samplers per draw next to the Philox words they consume (the floor of every sampler), the data of a
// spiked-Gaussian trial, and a Private Oja trial, each beside the numpy code a researcher would write
// for the same workload, run by Debian's python3-numpy in the same bench run (the ratio is what a user
// weighs). CPU time on both sides, numpy with one BLAS thread (bench/support/numpy_runner.hpp).
// Targets: normals <= 2.5 ns and >= 2x numpy; spiked data >= 2x numpy; Private Oja <= 40 ms and >= 20x
// numpy's per-sample loop.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "bench/support/cases.hpp"
#include "bench/support/numpy_oja_loops.hpp"
#include "bench/support/numpy_runner.hpp"
#include "bench/support/prepared_trial.hpp"
#include "bench/support/timing.hpp"
#include "core/models/model.hpp"
#include "core/samplers.hpp"

namespace {

using namespace dpb;

// 1e7 draws per timing, as 320 fills of a 256 KiB buffer: the cost of drawing, not of writing 80 MB to
// memory (which alone costs about 1.5 ns per double here, on both sides).
constexpr std::size_t kBuffer = 32768, kFills = 320, kDraws = kBuffer * kFills;
constexpr long kSpikedN = 10000, kSpikedP = 200, kOjaN = 100000, kOjaD = 100;

std::vector<double>& draws() {
  static std::vector<double> buffer(kBuffer);
  return buffer;
}

// CPU seconds of every iteration of each benchmark, for the summary's medians.
std::map<std::string, std::vector<double>>& seconds_by_name() {
  static std::map<std::string, std::vector<double>> all;
  return all;
}

template <class F>
void timed(benchmark::State& state, const std::string& name, double items, F&& work) {
  for (auto _ : state) {
    const double start = bench::thread_cpu_seconds();
    work();
    seconds_by_name()[name].push_back(bench::thread_cpu_seconds() - start);
  }
  state.counters["ns_per_item"] =
      benchmark::Counter(items * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_philox_words(benchmark::State& state) {
  core::Rng rng(1, 1);
  std::vector<std::uint64_t> words(2 * core::Rng::kMaxBlocks);
  std::uint64_t block = 0;
  timed(state, "philox_words", double(kDraws), [&] {
    for (std::size_t i = 0; i < kDraws; i += words.size(), block += core::Rng::kMaxBlocks)
      core::philox_blocks(1, 1, block, core::Rng::kMaxBlocks, words.data());
    benchmark::DoNotOptimize(words.data());
  });
}

using Fill = void (*)(core::Rng&, std::span<double>);

void BM_fill(benchmark::State& state, const char* name, Fill fill) {
  core::Rng rng(1, 2);
  timed(state, name, double(kDraws), [&] {
    for (std::size_t i = 0; i < kFills; ++i) {
      fill(rng, draws());
      benchmark::DoNotOptimize(draws().data());
    }
  });
}

void fill_laplace_1(core::Rng& rng, std::span<double> out) { core::fill_laplace(rng, 1.0, out); }

void BM_spiked_data(benchmark::State& state) {
  core::Rng model_rng(1, 3);
  const auto model = core::make_model(
      "spiked_gaussian", {{"d", double(kSpikedP)}, {"r", 3.0}, {"lambda", 4.0}, {"sigma2", 1.0}}, model_rng);
  core::Rng rng(1, 4);
  timed(state, "spiked_data", 1, [&] { benchmark::DoNotOptimize(model->sample(kSpikedN, rng)); });
}

void BM_private_oja(benchmark::State& state) {
  const auto cases = bench::algorithm_cases();
  const auto c = *std::find_if(cases.begin(), cases.end(), [](const auto& a) { return a.id == "liu2022.private_oja"; });
  const auto& trial = bench::prepared_trial(c, bench::Size{kOjaN, kOjaD, 1});
  const auto algorithm = alg::algorithm_registry().make(c.id, c.params(bench::Size{kOjaN, kOjaD, 1}));
  std::uint64_t run = 0;
  timed(state, "private_oja", 1, [&] {
    core::Rng rng(5, ++run);
    benchmark::DoNotOptimize(algorithm->run(trial.input, rng));
  });
}

// The numpy side: what a researcher would write for each workload, timed by CPU time, median of 5 (Private
// Oja: bench/support/numpy_oja_loops.hpp, one run).
constexpr const char* kNumpyScript = R"(
out = np.empty(%BUFFER%)
def fills(f):
    for _ in range(%FILLS%): f()
n, p, r = %SPIKED_N%, %SPIKED_P%, 3
L = np.linalg.qr(rng.standard_normal((p, r)))[0] * 2.0
def spiked():
    return rng.standard_normal((n, p)) + rng.standard_normal((n, r)) @ L.T
X = rng.standard_normal((%OJA_N%, %OJA_D%))
print(json.dumps({
    "standard_normal": median_cpu(lambda: fills(lambda: rng.standard_normal(out=out))),
    "uniform01": median_cpu(lambda: fills(lambda: rng.random(out=out))),
    "laplace": median_cpu(lambda: fills(lambda: rng.laplace(size=%BUFFER%))),
    "spiked_data": median_cpu(spiked),
    "private_oja": median_cpu(lambda: private_oja(X), runs=1),
    "numpy": np.__version__}))
)";

std::optional<nlohmann::json> numpy_timings(std::string& why_not) {
  return bench::run_numpy_script(std::string(bench::kNumpyOjaLoops) + kNumpyScript,
                                 {{"BUFFER", std::to_string(kBuffer)},
                                  {"FILLS", std::to_string(kFills)},
                                  {"SPIKED_N", std::to_string(kSpikedN)},
                                  {"SPIKED_P", std::to_string(kSpikedP)},
                                  {"OJA_N", std::to_string(kOjaN)},
                                  {"OJA_D", std::to_string(kOjaD)}},
                                 why_not);
}


struct Row {
  const char* name;
  const char* workload;
  double per;           // items per timing (ns per item = seconds / per)
  const char* unit;     // "ns" per item or "ms" per run
  const char* target;
};

void print_summary() {
  std::string why_not;
  const auto numpy = numpy_timings(why_not);
  const Row rows[] = {
      {"philox_words", "Philox4x32-10 words (the floor of every sampler)", double(kDraws), "ns", "-"},
      {"standard_normal", "bulk standard normals", double(kDraws), "ns", "<= 2.5 ns, >= 2x numpy"},
      {"uniform01", "bulk uniforms on (0, 1)", double(kDraws), "ns", "-"},
      {"laplace", "bulk Laplace(1)", double(kDraws), "ns", "-"},
      {"rademacher", "bulk Rademacher", double(kDraws), "ns", "-"},
      {"spiked_data", "spiked-Gaussian data, n = 1e4, p = 200, r = 3", 1, "ms", ">= 2x numpy"},
      {"private_oja", "liu2022 Private Oja, n = 1e5, d = 100", 1, "ms", "<= 40 ms, >= 20x numpy"},
  };
  fmt::print("\nSampling at the hardware limit (median CPU time; numpy {}):\n\n",
             numpy ? numpy->value("numpy", "?") : why_not);
  fmt::print("| workload | dpbounds | numpy | numpy / dpbounds | target |\n|---|---|---|---|---|\n");
  for (const auto& row : rows) {
    const auto it = seconds_by_name().find(row.name);
    if (it == seconds_by_name().end()) continue;  // filtered out
    const double scale = std::string(row.unit) == "ns" ? 1e9 / row.per : 1e3;
    const double ours = bench::median(it->second) * scale;
    std::string theirs = "-", ratio = "-";
    if (numpy && numpy->contains(row.name)) {
      const double value = numpy->at(row.name).get<double>() * scale;
      theirs = fmt::format("{:.3g} {}", value, row.unit);
      ratio = fmt::format("{:.2f}x", value / ours);
    }
    fmt::print("| {} | {:.3g} {} | {} | {} | {} |\n", row.workload, ours, row.unit, theirs, ratio, row.target);
  }
}

}  // namespace

BENCHMARK(BM_philox_words)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK_CAPTURE(BM_fill, standard_normal, "standard_normal", &core::fill_standard_normal)
    ->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK_CAPTURE(BM_fill, uniform01, "uniform01", &core::fill_uniform01)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK_CAPTURE(BM_fill, laplace, "laplace", &fill_laplace_1)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK_CAPTURE(BM_fill, rademacher, "rademacher", &core::fill_rademacher)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_spiked_data)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_private_oja)->Unit(benchmark::kMillisecond)->MinTime(1.0);

int main(int argc, char** argv) { return dpb::bench::run_benchmarks(argc, argv, print_summary); }
