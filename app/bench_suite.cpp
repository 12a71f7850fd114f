#include "app/bench_suite.hpp"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "core/errors.hpp"

extern char** environ;

namespace dpb::app {
namespace {

// Runs argv with this process's standard streams; its exit status (128 + signal when killed).
int run_program(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(stdout);
  pid_t pid = 0;
  if (const int error = posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ); error != 0)
    throw InvalidArgument(fmt::format("cannot start {}: {}", argv[0], std::strerror(error)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw InvalidArgument(fmt::format("waiting for {}: {}", argv[0], std::strerror(errno)));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

std::filesystem::path default_bench_dir() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path("bench") : self.parent_path() / "bench";
}

std::vector<std::filesystem::path> bench_executables(const BenchOptions& options) {
  for (const auto& name : options.only)
    if (std::find(kBenchNames.begin(), kBenchNames.end(), name) == kBenchNames.end())
      throw InvalidArgument(
          fmt::format("unknown benchmark '{}'; allowed: {}", name, fmt::join(kBenchNames, ", ")));
  std::vector<std::filesystem::path> found;
  for (const auto& name : kBenchNames) {
    if (!options.only.empty() && std::find(options.only.begin(), options.only.end(), name) == options.only.end())
      continue;
    const auto file = options.dir / ("bench_" + name);
    if (access(file.c_str(), X_OK) != 0)
      throw InvalidArgument(fmt::format(
          "no benchmark executable bench_{} in {}; build the benchmarks (cmake -DDPB_BUILD_BENCH=ON, then "
          "cmake --build) or point --dir at the build's bench folder",
          name, options.dir.string()));
    found.push_back(file);
  }
  return found;
}

int run_bench_suite(const BenchOptions& options) {
  const auto executables = bench_executables(options);
  if (options.out) std::filesystem::create_directories(*options.out);
  int status = 0;
  for (const auto& executable : executables) {
    std::vector<std::string> argv{executable.string()};
    if (!options.filter.empty()) argv.push_back("--benchmark_filter=" + options.filter);
    if (options.out) {
      argv.push_back("--benchmark_out=" + (*options.out / (executable.filename().string() + ".json")).string());
      argv.push_back("--benchmark_out_format=json");
    }
    fmt::print("== {}\n", executable.filename().string());
    const int code = run_program(argv);
    if (code != 0 && status == 0) status = code;
  }
  return status;
}

}  // namespace dpb::app
