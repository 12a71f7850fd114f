// `dpbounds bench` (bench/README.md): its argument errors and the message when the benchmark executables
// are not built. Never timings: those live in bench/ and are run by hand.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/run_cli.hpp"

using dpb::test::check_usage_error;
using dpb::test::run_cli;

namespace {

// An empty folder under the temporary directory with one executable shell script `name` in it.
std::filesystem::path folder_with_script(const std::string& folder, const std::string& name, const std::string& body) {
  const auto dir = std::filesystem::temp_directory_path() / folder;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name) << "#!/bin/sh\n" << body << "\n";
  std::filesystem::permissions(dir / name, std::filesystem::perms::owner_all);
  return dir;
}

}  // namespace

TEST_CASE("bench names the missing executable and how to build it", "[cli][bench]") {
  const auto empty = std::filesystem::temp_directory_path() / "dpb_bench_cli_test_empty";
  std::filesystem::create_directories(empty);
  const auto r = run_cli("bench --dir '" + empty.string() + "'");
  check_usage_error(r);
  CHECK(r.err.find("no benchmark executable bench_algorithms in " + empty.string()) != std::string::npos);
  CHECK(r.err.find("DPB_BUILD_BENCH=ON") != std::string::npos);
  std::filesystem::remove_all(empty);
}

TEST_CASE("bench checks every executable before it runs any", "[cli][bench]") {
  // bench_algorithms exists (a script that would print), bench_samplers and bench_throughput do not:
  // nothing may run, and the error names the first missing one.
  const auto dir = folder_with_script("dpb_bench_cli_test_partial", "bench_algorithms", "echo ran");
  const auto r = run_cli("bench --dir '" + dir.string() + "'");
  check_usage_error(r);
  CHECK(r.err.find("bench_samplers") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("bench --only runs the named executable with the filter", "[cli][bench]") {
  const auto dir = folder_with_script("dpb_bench_cli_test_only", "bench_throughput", "echo \"args: $*\"");
  const auto r = run_cli("bench --dir '" + dir.string() + "' --only throughput --filter runner");
  CHECK(r.code == 0);
  CHECK(r.out.find("== bench_throughput") != std::string::npos);
  CHECK(r.out.find("args: --benchmark_filter=runner") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("bench rejects an unknown benchmark name", "[cli][bench]") {
  const auto r = run_cli("bench --only nonesuch");
  check_usage_error(r);
  CHECK(r.err.find(
            "unknown benchmark 'nonesuch'; allowed: algorithms, samplers, kernels, throughput, python") !=
        std::string::npos);
}
