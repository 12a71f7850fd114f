#include "bench/support/machine_peak.hpp"

#include <Eigen/Dense>
#include <benchmark/benchmark.h>
#include <algorithm>

#include "bench/support/prepared_trial.hpp"
#include "bench/support/timing.hpp"

namespace dpb::bench {
namespace {

MachinePeak measure() {
  constexpr Eigen::Index kSide = 512;
  const Eigen::MatrixXd A = Eigen::MatrixXd::Random(kSide, kSide), B = Eigen::MatrixXd::Random(kSide, kSide);
  Eigen::MatrixXd C(kSide, kSide);
  const double gemm = median_seconds([&] {
    C.noalias() = A * B;
    benchmark::DoNotOptimize(C.data());
  }, 5, 0.2);
  const Eigen::VectorXd stream = Eigen::VectorXd::Ones(Eigen::Index{32} << 20);  // 256 MB
  const double read = median_seconds([&] { benchmark::DoNotOptimize(stream.sum()); }, 5, 0.2);
  MachinePeak peak;
  peak.flops_per_second = 2.0 * double(kSide) * double(kSide) * double(kSide) / gemm;
  peak.bytes_per_second = double(stream.size()) * sizeof(double) / read;
  return peak;
}

}  // namespace

const MachinePeak& machine_peak() {
  static const MachinePeak peak = measure();
  return peak;
}

double arithmetic_floor_seconds(double flops, double bytes) {
  const MachinePeak& peak = machine_peak();
  return std::max(flops / peak.flops_per_second, bytes / peak.bytes_per_second);
}

}  // namespace dpb::bench
