#include "bench/support/numpy_runner.hpp"

#include <fmt/format.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

namespace dpb::bench {
namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// What every script may use: json, time, np, a seeded generator `rng`, and median_cpu(f, runs), the median
// CPU time of f() in seconds.
constexpr const char* kPrelude = R"(import json, time
import numpy as np
rng = np.random.default_rng(1)
def median_cpu(f, runs=5):
    times = []
    for _ in range(runs):
        start = time.process_time(); f(); times.append(time.process_time() - start)
    return sorted(times)[len(times) // 2]
)";

}  // namespace

std::optional<std::string> numpy_python() {
  std::vector<std::string> candidates;
  if (const char* chosen = std::getenv("DPB_PYTHON")) candidates.push_back(chosen);
  candidates.insert(candidates.end(), {"python3", "/usr/bin/python3"});
  for (const auto& python : candidates)
    if (std::system(fmt::format("'{}' -c 'import numpy' >/dev/null 2>&1", python).c_str()) == 0) return python;
  return std::nullopt;
}

std::optional<nlohmann::json> run_numpy_script(std::string script, const std::map<std::string, std::string>& values,
                                               std::string& why_not) {
  const auto python = numpy_python();
  if (!python) {
    why_not = "no python3 with numpy (install python3-numpy, or set DPB_PYTHON)";
    return std::nullopt;
  }
  for (const auto& [key, value] : values) script = replace_all(script, "%" + key + "%", value);
  const auto file = std::filesystem::temp_directory_path() / fmt::format("dpb_bench_numpy_{}.py", ::getpid());
  std::ofstream(file) << kPrelude << script;
  // One BLAS thread, as dpbounds' trials have: a like-for-like per-core comparison (OpenBLAS's idle threads
  // spin, and CPU time would count them).
  FILE* pipe = ::popen(fmt::format("OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 '{}' '{}'", *python,
                                   file.string())
                           .c_str(),
                       "r");
  std::string output;
  for (char chunk[4096]; pipe && std::fgets(chunk, sizeof chunk, pipe);) output += chunk;
  const int status = pipe ? ::pclose(pipe) : -1;
  std::filesystem::remove(file);
  if (status != 0) {
    why_not = fmt::format("the numpy script failed ({})", *python);
    return std::nullopt;
  }
  return nlohmann::json::parse(output);
}

}  // namespace dpb::bench
