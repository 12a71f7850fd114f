// The ranks interface (verify/distributed/ranks.hpp) over MPI. Only the runner's threads call it, one at
// a time under the runner's lock, so MPI_THREAD_SERIALIZED is all it asks of the library.
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <fmt/format.h>
#include <list>
#include <stdexcept>
#include <thread>

#include "core/errors.hpp"
#include "verify/distributed/launch.hpp"
#include "verify/distributed/ranks.hpp"

namespace dpb::verify::ranks {
namespace {

constexpr int kRowsTag = 1;
// How long a failing rank waits for the others to fail the same way before it ends the job. Ranks that
// read the same bad config fail within milliseconds of each other, but an error every rank meets at
// an experiment's audits may reach the other ranks while rank 0 still checks the trials before them.
constexpr std::chrono::seconds kFailureAgreement{60};
constexpr std::chrono::milliseconds kFailurePoll{5};

struct Outgoing {
  std::string bytes;  // alive until the send completes
  MPI_Request request = MPI_REQUEST_NULL;
};

struct World {
  bool started = false;
  int rank = 0, size = 1;
  MPI_Comm work = MPI_COMM_NULL;      // rows, broadcasts and the exit code
  MPI_Comm failures = MPI_COMM_NULL;  // only fail()'s barrier, so that it never matches the work's collectives
  int stderr_fd = STDERR_FILENO;      // the real stderr, kept on ranks whose stderr is silenced
  std::list<Outgoing> outgoing;       // a list: elements never move while MPI reads them
};

World& world() {
  static World w;
  return w;
}

void silence(int fd) {
  const int null = ::open("/dev/null", O_WRONLY);
  if (null < 0) return;
  ::dup2(null, fd);
  ::close(null);
}

int message_size(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX))
    throw std::length_error(fmt::format("an MPI message of {} bytes is over MPI's limit of {}", bytes, INT_MAX));
  return static_cast<int>(bytes);
}

}  // namespace

Session::Session(int& argc, char**& argv) {
  if (launched_size() <= 1) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw InvalidArgument("this MPI library cannot serve calls from several threads (MPI_THREAD_SERIALIZED); "
                          "use Open MPI or rebuild the library with thread support");
  }
  World& w = world();
  w.started = true;
  MPI_Comm_dup(MPI_COMM_WORLD, &w.work);
  MPI_Comm_dup(MPI_COMM_WORLD, &w.failures);
  MPI_Comm_rank(w.work, &w.rank);
  MPI_Comm_size(w.work, &w.size);
  if (w.rank != 0) {
    w.stderr_fd = ::dup(STDERR_FILENO);
    silence(STDOUT_FILENO);
    silence(STDERR_FILENO);
  }
}

Session::~Session() {
  World& w = world();
  if (!w.started) return;
  finish_sends();
  MPI_Comm_free(&w.work);
  MPI_Comm_free(&w.failures);
  MPI_Finalize();
  w = World{};
}

bool built_with_mpi() { return true; }
int rank() { return world().rank; }
int size() { return world().size; }

void broadcast(std::string& bytes) {
  World& w = world();
  if (!w.started) return;
  unsigned long long length = bytes.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, w.work);
  bytes.resize(length);
  MPI_Bcast(bytes.data(), message_size(length), MPI_BYTE, 0, w.work);
}

void send_to_root(std::string bytes) {
  World& w = world();
  if (!w.started || w.rank == 0) throw std::logic_error("send_to_root: only ranks other than 0 send rows");
  Outgoing& out = w.outgoing.emplace_back();
  out.bytes = std::move(bytes);
  MPI_Isend(out.bytes.data(), message_size(out.bytes.size()), MPI_BYTE, 0, kRowsTag, w.work, &out.request);
  advance_sends();
}

void advance_sends() {
  auto& outgoing = world().outgoing;
  for (auto it = outgoing.begin(); it != outgoing.end();) {
    int done = 0;
    MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
    it = done ? outgoing.erase(it) : std::next(it);  // a completed send's buffer is free
  }
}

void finish_sends() {
  for (auto& out : world().outgoing) MPI_Wait(&out.request, MPI_STATUS_IGNORE);
  world().outgoing.clear();
}

std::optional<std::string> receive(bool wait) {
  World& w = world();
  if (!w.started) return std::nullopt;
  MPI_Status status;
  int arrived = 1;
  if (wait)
    MPI_Probe(MPI_ANY_SOURCE, kRowsTag, w.work, &status);
  else
    MPI_Iprobe(MPI_ANY_SOURCE, kRowsTag, w.work, &arrived, &status);
  if (!arrived) return std::nullopt;
  int length = 0;
  MPI_Get_count(&status, MPI_BYTE, &length);
  std::string bytes(static_cast<std::size_t>(length), '\0');
  MPI_Recv(bytes.data(), length, MPI_BYTE, status.MPI_SOURCE, kRowsTag, w.work, MPI_STATUS_IGNORE);
  return bytes;
}

int agree(int exit_code) {
  if (world().started) MPI_Bcast(&exit_code, 1, MPI_INT, 0, world().work);
  return exit_code;
}

int fail(int exit_code, const std::string& line) {
  World& w = world();
  if (!w.started) {
    if (launched_rank() == 0) fmt::print(stderr, "{}\n", line);
    return exit_code;
  }
  MPI_Request everyone;
  MPI_Ibarrier(w.failures, &everyone);
  const auto deadline = std::chrono::steady_clock::now() + kFailureAgreement;
  int all_failed = 0;
  while (!all_failed && std::chrono::steady_clock::now() < deadline) {
    MPI_Test(&everyone, &all_failed, MPI_STATUS_IGNORE);
    if (!all_failed) std::this_thread::sleep_for(kFailurePoll);
  }
  if (all_failed) {
    if (w.rank == 0) fmt::print(stderr, "{}\n", line);
    return exit_code;
  }
  const std::string text = fmt::format("{} (rank {} of {}; ending the MPI job)\n", line, w.rank, w.size);
  if (::write(w.stderr_fd, text.data(), text.size()) < 0) {
    // nowhere left to say it: the job ends all the same
  }
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  return exit_code;
}

}  // namespace dpb::verify::ranks
