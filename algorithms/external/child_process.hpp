#pragma once
// One external program run without a shell, its standard streams connected to this process: the
// transport of external.command (docs/external.md). Every failure (the program cannot be started, it
// times out, it exits) throws dpb::InvalidArgument naming the program, never a signal or an abort:
//   - stdin is a socket pair written with MSG_NOSIGNAL, so a program that exits early gives EPIPE, not
//     SIGPIPE in the caller;
//   - stdin, stdout and stderr are serviced together by poll() with non-blocking I/O, so a program that
//     writes while it is still being fed cannot deadlock either side;
//   - every descriptor is close-on-exec, so concurrent children never inherit each other's pipes.
// Not thread-safe: one caller at a time (external.command keeps one per worker thread behind a mutex).
#include <sys/types.h>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace dpb::alg::external {

class ChildProcess {
 public:
  using Deadline = std::chrono::steady_clock::time_point;

  // Starts argv[0] (searched on PATH when it has no '/'); throws dpb::InvalidArgument naming it when it
  // cannot be started (missing, not executable).
  explicit ChildProcess(std::vector<std::string> argv);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // Kills the program if it still runs, and reaps it.
  ~ChildProcess();

  // Persistent use: writes `input`, then returns the next line the program writes to stdout (without its
  // '\n'). Throws when the deadline passes (the program is killed) or stdout ends first.
  std::string exchange_line(std::string_view input, Deadline deadline);
  // One-shot use: writes `input`, closes stdin, reads stdout to its end and waits for the exit; returns
  // everything written to stdout. Throws on a timeout (the program is killed) or a non-zero exit status.
  std::string exchange_to_exit(std::string_view input, Deadline deadline);

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // The last bytes the program wrote to stderr (the whole of it when short): quoted in every error.
  const std::string& stderr_tail() const { return stderr_tail_; }

 private:
  enum class Until { line, end_of_output };
  // Feeds `input` and reads stdout until `until`; closes stdin after the input when `close_input`.
  void pump(std::string_view input, bool close_input, Until until, Deadline deadline);
  void read_available(int& fd, std::string& into);  // closes `fd` once it reached its end
  // Reaps the program: "" for a zero exit status, else what happened ("exited with status 3"); kills it
  // and throws when the deadline passes first.
  std::string wait_for_exit(Deadline deadline);
  void kill_and_reap();
  [[noreturn]] void fail(const std::string& problem);

  std::string name_;  // argv[0], for messages
  pid_t pid_ = -1;
  int stdin_fd_ = -1, stdout_fd_ = -1, stderr_fd_ = -1;
  std::string stdout_buffer_;  // read but not yet returned
  std::string stderr_tail_;
};

}  // namespace dpb::alg::external
