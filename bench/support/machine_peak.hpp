#pragma once
// The machine's measured peak on one core, for arithmetic floors (issue 23): what a trial could cost if it
// did only its unavoidable floating-point work and memory traffic at the best rate this core reaches.
namespace dpb::bench {

struct MachinePeak {
  // The faster of Eigen's double GEMM at 512 x 512 x 512 (built for the x86-64 baseline: two lanes) and
  // core/gram_products' widest Gram kernel at 256 x 4096 (four lanes where the CPU has AVX2), so that no
  // kernel of ours runs above the peak it is judged by.
  double flops_per_second = 0;
  const char* flops_by = "";    // which of the two set it
  double bytes_per_second = 0;  // a streaming read of 256 MB (a sum over it: no write traffic)
};

// Measured once per process (median of five runs each; about a second).
const MachinePeak& machine_peak();

// max(flops / peak flops, bytes / peak bandwidth): the time below which no implementation can go.
double arithmetic_floor_seconds(double flops, double bytes);

}  // namespace dpb::bench
