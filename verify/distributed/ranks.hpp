#pragma once
// The processes of one `dpbounds` invocation (docs/cluster.md): a single process, or the ranks of an MPI
// job started with `mpirun -np N dpbounds ...`. Rank 0 owns the results store and everything printed;
// the other ranks run their share of the trials and send the rows to rank 0 (verify/runner/runner.cpp).
//
// Two implementations of this interface exist and CMake compiles one: ranks_mpi.cpp when MPI is found,
// ranks_single.cpp (always one process) when it is not. Code outside them never mentions MPI.
#include <optional>
#include <string>

namespace dpb::verify::ranks {

// MPI for the lifetime of main(). Started only when the launcher announced several ranks (mpirun sets
// OMPI_COMM_WORLD_SIZE, Slurm's and MPICH's launchers PMI_SIZE); a plain `dpbounds run` never touches
// MPI. On ranks other than 0, stdout and stderr go to /dev/null: reports and progress come from rank 0.
// Throws dpb::InvalidArgument when launched as several ranks by a build without MPI (they would run N
// independent copies that fight over the store) or by an MPI library that cannot serve threads.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

bool built_with_mpi();
int rank();  // 0 in a single process
int size();  // 1 in a single process
inline bool is_root() { return rank() == 0; }

// Collective (every rank calls it at the same point): root's `bytes` replace everyone else's.
void broadcast(std::string& bytes);

// A rank other than root hands `bytes` to root without waiting for delivery (buffered here until then).
// Every call also moves earlier sends along.
void send_to_root(std::string bytes);
// Moves this rank's pending sends along without waiting: MPI transfers a large message only while
// both sides are inside MPI calls, so a computing rank calls this after each trial.
void advance_sends();
// Blocks until every send of this rank has been delivered.
void finish_sends();

// Root: the next message sent with send_to_root by any rank; with `wait` false, none when nothing has
// arrived yet.
std::optional<std::string> receive(bool wait);

// The end of main() on every rank: root's exit code, so that the ranks of a job agree.
int agree(int exit_code);

// The end of main() after an error `line` (one line, no newline): returns `exit_code` after printing
// the line once (on rank 0) when every rank failed the same way (a bad config: each rank read it); when
// only this rank failed, prints the line with its rank and ends the whole job with MPI_Abort instead of
// leaving the others waiting for it.
int fail(int exit_code, const std::string& line);

}  // namespace dpb::verify::ranks
