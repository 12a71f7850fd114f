#include "verify/report/gnuplot.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "verify/report/atomic_file.hpp"

namespace dpb::verify {

namespace {

bool executable(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::filesystem::path find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return executable(program) ? program : "";
  const char* path = std::getenv("PATH");
  std::stringstream entries(path ? path : "");
  std::string entry;
  while (std::getline(entries, entry, ':')) {
    const auto candidate = std::filesystem::path(entry.empty() ? "." : entry) / program;
    if (executable(candidate)) return candidate;
  }
  return {};
}

ProgramResult run_script(const std::filesystem::path& program, const std::filesystem::path& script,
                         const std::filesystem::path& directory) {
  const auto stderr_file = partial_path(directory / (script.filename().string() + ".stderr"));
  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
  const std::string program_text = program.string(), script_text = script.string(),
                    directory_text = directory.string(), stderr_text = stderr_file.string();
  char* const argv[] = {const_cast<char*>(program_text.c_str()), const_cast<char*>(script_text.c_str()),
                        nullptr};
  ProgramResult result;
  const pid_t pid = ::fork();
  if (pid < 0) return result;
  if (pid == 0) {
    const int err = ::open(stderr_text.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_WRONLY);
    if (err < 0 || null < 0 || ::chdir(directory_text.c_str()) != 0) ::_exit(127);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    ::execv(program_text.c_str(), argv);
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return result;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  std::ifstream in(stderr_file);
  std::stringstream text;
  text << in.rdbuf();
  result.diagnostics = text.str();
  std::error_code ec;
  std::filesystem::remove(stderr_file, ec);
  return result;
}

}  // namespace dpb::verify
