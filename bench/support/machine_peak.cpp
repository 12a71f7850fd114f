#include "bench/support/machine_peak.hpp"

#include <benchmark/benchmark.h>
#include <Eigen/Dense>
#include <algorithm>
#include <vector>

#include "bench/support/prepared_trial.hpp"
#include "bench/support/timing.hpp"
#include "core/gram_products.hpp"

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
  constexpr Eigen::Index kRows = 256, kDepth = 4096;
  const Eigen::MatrixXd D = Eigen::MatrixXd::Random(kRows, kDepth);
  Eigen::MatrixXd G;
  std::vector<double> scratch;
  const double gram = median_seconds(
      [&] {
        core::gram_products::gram(D, core::gram_products::GramOf::rows, G, scratch);
        benchmark::DoNotOptimize(G.data());
      },
      5, 0.2);
  const Eigen::VectorXd stream = Eigen::VectorXd::Ones(Eigen::Index{32} << 20);  // 256 MB
  const double read = median_seconds([&] { benchmark::DoNotOptimize(stream.sum()); }, 5, 0.2);
  MachinePeak peak;
  const double gemm_rate = 2.0 * double(kSide) * double(kSide) * double(kSide) / gemm;
  const double gram_rate = double(kRows) * double(kRows + 1) * double(kDepth) / gram;  // one triangle's flops
  peak.flops_per_second = std::max(gemm_rate, gram_rate);
  peak.flops_by = gemm_rate >= gram_rate ? "Eigen's GEMM" : "the Gram kernel";
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
