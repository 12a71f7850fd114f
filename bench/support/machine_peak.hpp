#pragma once
// The machine's measured peak on one core, for arithmetic floors (issue 23): what a trial could cost if it
// did only its unavoidable floating-point work and memory traffic at the best rate this core reaches.
namespace dpb::bench {

struct MachinePeak {
  double flops_per_second = 0;  // Eigen's double GEMM at 512 x 512 x 512 (its best kernel)
  double bytes_per_second = 0;  // a streaming read of 256 MB (a sum over it: no write traffic)
};

// Measured once per process (median of five runs each; about a second).
const MachinePeak& machine_peak();

// max(flops / peak flops, bytes / peak bandwidth): the time below which no implementation can go.
double arithmetic_floor_seconds(double flops, double bytes);

}  // namespace dpb::bench
