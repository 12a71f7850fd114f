#pragma once
// Runs the `dpbounds` executable (its path comes from ctest's DPB_CLI) and captures what it printed:
// shared by every end-to-end test in tests/cli/.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/text.hpp"

namespace dpb::test {

struct CliResult {
  int code;
  std::string out, err;
};

// `args` is appended to the executable's path as a shell command line (quote as a shell would);
// `launcher` goes before it (`mpirun -np 2`).
inline CliResult run_cli(const std::string& args, const std::string& launcher = "") {
  const char* cli = std::getenv("DPB_CLI");
  REQUIRE(cli != nullptr);
  // ctest runs the cases as parallel processes: every call gets its own capture files.
  static int calls = 0;
  const std::string tag = std::to_string(::getpid()) + "_" + std::to_string(calls++);
  const auto dir = std::filesystem::temp_directory_path();
  const auto out = dir / ("dpb_cli_test_" + tag + ".out"), err = dir / ("dpb_cli_test_" + tag + ".err");
  const std::string cmd = launcher + " '" + cli + "' " + args + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  CliResult result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return result;
}

inline long lines(const std::string& s) { return static_cast<long>(std::count(s.begin(), s.end(), '\n')); }

// What every invalid input must give: exit status 2, one line "dpbounds: error: ..." on stderr, nothing
// on stdout.
inline void check_usage_error(const CliResult& r) {
  CHECK(r.code == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.rfind("dpbounds: error: ", 0) == 0);
  CHECK(r.out.empty());
}

}  // namespace dpb::test
