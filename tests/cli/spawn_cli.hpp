#pragma once
// Starts the `dpbounds` executable (DPB_CLI) as a child process that a test can signal or kill mid-run,
// and waits for it: for the tests of the store's and the runner's promises (Ctrl-C, kill, resume).
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli/run_cli.hpp"

extern char** environ;

namespace dpb::test {

struct Child {
  pid_t pid;
  std::filesystem::path out, err;
};

// Starts `launcher... dpbounds args...` (launcher: e.g. {"/usr/bin/mpirun", "-np", "2"}, its first word
// a path) with stdout and stderr going to files in `dir`.
inline Child spawn_cli(const std::filesystem::path& dir, const std::vector<std::string>& args,
                       const std::vector<std::string>& launcher = {}) {
  const char* cli = std::getenv("DPB_CLI");
  REQUIRE(cli != nullptr);
  static int calls = 0;
  Child child{0, dir / ("out" + std::to_string(calls)), dir / ("err" + std::to_string(calls))};
  ++calls;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, child.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, child.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> all = launcher;
  all.push_back(cli);
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  REQUIRE(posix_spawn(&child.pid, argv[0], &actions, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  return child;
}

// What the child printed, and its exit status or -signal when a signal ended it.
inline CliResult wait_for(const Child& child) {
  int status = 0;
  ::waitpid(child.pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status), slurp(child.out), slurp(child.err)};
}

// Polls `ready` every 2 ms while the child runs, so that a signal sent next lands mid-run. Fails with the
// child's exit status and what it printed when it ends first: a run that failed or finished between two
// polls says which.
template <class Ready>
void wait_while_running(const Child& child, Ready ready) {
  while (!ready()) {
    int status = 0;
    if (::waitpid(child.pid, &status, WNOHANG) != 0) {
      const bool finished = ready();
      FAIL("the child ended (status " << (WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status))
                                      << ") before the test saw "
                                      << (finished ? "it finish: " : "any progress: ") << "stdout:\n"
                                      << slurp(child.out) << "stderr:\n"
                                      << slurp(child.err));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace dpb::test
