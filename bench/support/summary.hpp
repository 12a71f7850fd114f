#pragma once
// What the algorithm benchmarks print after Google Benchmark's own table: each algorithm's worst ratio
// to its floor against the target (and, beside it, to the arithmetic floor at the same size), and the exponents of time in n, d (p) and k fitted over the
// standard sizes beside the exponents the cost model predicts at the same sizes.
#include <ostream>

#include "bench/support/cases.hpp"

namespace dpb::bench {

// One timed run of a case (a benchmark calls it once per repetition and iteration-count probe).
void record_timing(const AlgorithmCase& c, const Size& size, long iterations, double seconds_per_trial,
                   double floor_seconds, double arithmetic_seconds);

void print_summary(std::ostream& out);

}  // namespace dpb::bench
