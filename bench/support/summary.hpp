#pragma once
// What the algorithm benchmarks print after Google Benchmark's own table: each algorithm's worst ratio
// to its floor against the target (and, beside it, to the arithmetic floor at the same size), and
// the exponents of time in n, d (p) and k fitted over the standard sizes beside the exponents the cost
// model predicts at the same sizes.
#include <ostream>

#include "bench/support/cases.hpp"

namespace dpb::bench {

// One timed run of a case (a benchmark calls it once per repetition and iteration-count probe).
void record_timing(const AlgorithmCase& c, const Size& size, long iterations, double seconds_per_trial,
                   double floor_seconds, double arithmetic_seconds);

void print_summary(std::ostream& out);

// dpbounds beside numpy, at each standard size where the algorithms ran (data generation excluded on both
// sides):
// - the covariance family: numpy's non-private PCA (S = X^T X / n and np.linalg.eigh, what a user would run
//   instead), `baseline.nonprivate_pca`, `cai2024.gaussian_mechanism` and the ratio a user weighs;
// - the Oja family: numpy's loops of the same workloads (bench/support/numpy_{oja,dp_pca,adaptive}_loops.hpp)
//   beside every algorithm of the family (kOjaPairs in summary.cpp), at each size where it ran.
void print_numpy_comparison(std::ostream& out);

}  // namespace dpb::bench
