#pragma once
// Independent numbered jobs spread over the ranks of an MPI job (verify/distributed/ranks.hpp): what the
// privacy auditor's mechanism runs are. Each rank runs its jobs on its OpenMP threads; job(i) must be
// safe to call concurrently.
#include <cstddef>
#include <functional>
#include <vector>

namespace dpb::verify::ranks {

// Runs job(i) for i in [0, count): rank r the jobs r, r + N, r + 2N, ... Returns every job's values, in
// job order, on every rank, bit for bit as job(i) computed them. Collective: every rank calls it at the
// same point. A job that throws: the exception of the lowest such job of this rank is rethrown once its
// jobs are done (on one process, the one a serial loop would throw); under MPI every other rank then throws
// dpb::InvalidArgument with the first failing rank's message, so no rank waits on one that left.
std::vector<std::vector<double>> spread(std::size_t count, const std::function<std::vector<double>(std::size_t)>& job);

}  // namespace dpb::verify::ranks
