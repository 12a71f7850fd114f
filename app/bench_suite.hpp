#pragma once
// `dpbounds bench`: finds the benchmark executables of the build (bench/<name>.cpp builds bench_<name>,
// Google Benchmark) and runs them one after another with their output on this terminal.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace dpb::app {

// The suite's executables, in the order they run.
inline const std::vector<std::string> kBenchNames = {"algorithms", "samplers", "kernels", "throughput",
                                                     "python"};

struct BenchOptions {
  std::filesystem::path dir;                // where the bench_<name> executables are
  std::vector<std::string> only;            // names from kBenchNames; empty: all
  std::string filter;                       // Google Benchmark's --benchmark_filter (empty: all)
  std::optional<std::filesystem::path> out;  // also write <out>/bench_<name>.json
};

// The folder of a build's benchmarks as seen from the running executable: <its folder>/bench.
std::filesystem::path default_bench_dir();

// The executables to run. Throws dpb::InvalidArgument for a name outside kBenchNames, or when one is not
// built: "no benchmark executable bench_algorithms in DIR (configure with -DDPB_BUILD_BENCH=ON ...)".
std::vector<std::filesystem::path> bench_executables(const BenchOptions& options);

// Runs them; 0 when every one exits 0, else the first non-zero status.
int run_bench_suite(const BenchOptions& options);

}  // namespace dpb::app
