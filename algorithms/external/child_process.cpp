#include "algorithms/external/child_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <thread>
#include <utility>

#include "core/errors.hpp"

extern char** environ;

namespace dpb::alg::external {
namespace {

constexpr std::size_t kStderrTailBytes = 2000;  // enough for a stack of error lines, short enough to store
constexpr std::size_t kReadChunkBytes = 1 << 16;
// How often wait_for_exit looks again once the program has closed its output but not yet exited.
constexpr std::chrono::milliseconds kExitPollInterval{2};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

int milliseconds_until(ChildProcess::Deadline deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<long long>(left.count(), 0, INT_MAX));
}

std::string describe_status(int status) {
  if (WIFEXITED(status))
    return WEXITSTATUS(status) == 0 ? std::string()
                                    : fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  return fmt::format("ended with wait status {}", status);
}

}  // namespace

ChildProcess::ChildProcess(std::vector<std::string> argv) : name_(argv.at(0)) {
  int input[2] = {-1, -1}, output[2] = {-1, -1}, errors[2] = {-1, -1};
  // stdin is a socket so that writes can pass MSG_NOSIGNAL; a program reads it like any pipe.
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, input) != 0)
    fail(fmt::format("could not be given a stdin: {}", std::strerror(errno)));
  if (::pipe2(output, O_CLOEXEC) != 0 || ::pipe2(errors, O_CLOEXEC) != 0) {
    const int error = errno;
    for (int fd : {input[0], input[1], output[0], output[1], errors[0], errors[1]})
      if (fd >= 0) ::close(fd);
    fail(fmt::format("could not be given stdout and stderr pipes: {}", std::strerror(error)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO);
  std::vector<char*> args;
  for (auto& word : argv) args.push_back(word.data());
  args.push_back(nullptr);
  const int spawned = ::posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  for (int fd : {input[1], output[1], errors[1]}) ::close(fd);
  stdin_fd_ = input[0];
  stdout_fd_ = output[0];
  stderr_fd_ = errors[0];
  if (spawned != 0) {
    pid_ = -1;
    kill_and_reap();
    fail(
        fmt::format("cannot be started: {} (it is run without a shell: give the path of an executable or "
                    "the name of one on PATH)",
                    std::strerror(spawned)));
  }
  for (int fd : {stdin_fd_, stdout_fd_, stderr_fd_}) set_nonblocking(fd);
}

ChildProcess::~ChildProcess() { kill_and_reap(); }

std::string ChildProcess::exchange_line(std::string_view input, Deadline deadline) {
  if (stdin_fd_ < 0) fail("closed its stdin and cannot take another trial");
  // Output left over from the previous exchange would be taken for this trial's reply: out of step.
  if (stdout_fd_ >= 0) read_available(stdout_fd_, stdout_buffer_);
  if (!stdout_buffer_.empty())
    fail("wrote more than one line for its previous request (the protocol allows one)");
  pump(input, false, Until::line, deadline);
  const std::size_t end = stdout_buffer_.find('\n');
  std::string line = stdout_buffer_.substr(0, end);
  stdout_buffer_.erase(0, end + 1);
  return line;
}

std::string ChildProcess::exchange_to_exit(std::string_view input, Deadline deadline) {
  pump(input, true, Until::end_of_output, deadline);
  if (const std::string outcome = wait_for_exit(deadline); !outcome.empty()) fail(outcome);
  return std::exchange(stdout_buffer_, {});
}

void ChildProcess::pump(std::string_view input, bool close_input, Until until, Deadline deadline) {
  std::size_t written = 0;
  for (;;) {
    // A reply counts only once the whole request is written: the next request must start on a fresh stream.
    if (until == Until::line && written == input.size() && stdout_buffer_.find('\n') != std::string::npos)
      return;
    if (stdout_fd_ < 0) {
      if (until == Until::end_of_output) return;
      const std::string outcome = wait_for_exit(deadline);
      fail(fmt::format("closed its stdout before writing a reply line{}",
                       outcome.empty() ? "" : " and " + outcome));
    }
    if (close_input && written == input.size()) close_fd(stdin_fd_);
    const int ms = milliseconds_until(deadline);
    if (ms == 0) {
      kill_and_reap();
      fail("did not finish before its deadline (parameter timeout_seconds) and was killed");
    }
    pollfd fds[3];
    nfds_t count = 0;
    const bool feeding = stdin_fd_ >= 0 && written < input.size();
    if (feeding) fds[count++] = {stdin_fd_, POLLOUT, 0};
    const nfds_t out = count;
    fds[count++] = {stdout_fd_, POLLIN, 0};
    const nfds_t err = count;
    if (stderr_fd_ >= 0) fds[count++] = {stderr_fd_, POLLIN, 0};
    if (::poll(fds, count, ms) < 0) {
      if (errno == EINTR) continue;
      fail(fmt::format("could not be watched: poll failed: {}", std::strerror(errno)));
    }
    if (feeding && fds[0].revents != 0) {
      const ssize_t sent =
          ::send(stdin_fd_, input.data() + written, input.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent > 0) {
        written += static_cast<std::size_t>(sent);
      } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        // It stopped reading (EPIPE): no more input, but its output and exit still say why.
        close_fd(stdin_fd_);
        written = input.size();
      }
    }
    if (fds[out].revents != 0) read_available(stdout_fd_, stdout_buffer_);
    if (stderr_fd_ >= 0 && fds[err].revents != 0) read_available(stderr_fd_, stderr_tail_);
  }
}

void ChildProcess::read_available(int& fd, std::string& into) {
  char chunk[kReadChunkBytes];
  for (;;) {
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got > 0) {
      into.append(chunk, static_cast<std::size_t>(got));
      if (&into == &stderr_tail_ && into.size() > kStderrTailBytes)
        into.erase(0, into.size() - kStderrTailBytes);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    close_fd(fd);  // end of stream, or an error that ends it as surely
    return;
  }
}

std::string ChildProcess::wait_for_exit(Deadline deadline) {
  while (pid_ > 0) {
    int status = 0;
    const pid_t reaped = ::waitpid(pid_, &status, WNOHANG);
    if (reaped == pid_) {
      pid_ = -1;
      if (stderr_fd_ >= 0) read_available(stderr_fd_, stderr_tail_);
      return describe_status(status);
    }
    if (reaped < 0 && errno != EINTR) {
      pid_ = -1;
      return fmt::format("could not be waited for: {}", std::strerror(errno));
    }
    if (milliseconds_until(deadline) == 0) {
      kill_and_reap();
      fail("did not exit before its deadline (parameter timeout_seconds) and was killed");
    }
    if (stderr_fd_ >= 0) {
      pollfd watch{stderr_fd_, POLLIN, 0};
      if (::poll(&watch, 1, static_cast<int>(kExitPollInterval.count())) > 0)
        read_available(stderr_fd_, stderr_tail_);
    } else {
      std::this_thread::sleep_for(kExitPollInterval);
    }
  }
  return {};
}

void ChildProcess::kill_and_reap() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  for (int* fd : {&stdin_fd_, &stdout_fd_, &stderr_fd_}) close_fd(*fd);
}

void ChildProcess::fail(const std::string& problem) {
  std::string tail = stderr_tail_;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  throw InvalidArgument(fmt::format("external.command: program '{}' {}{}", name_, problem,
                                    tail.empty() ? "" : "; the end of its stderr: " + tail));
}

}  // namespace dpb::alg::external
