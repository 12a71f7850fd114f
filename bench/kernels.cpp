// Benchmark (not a test): Eigen's kernels beside their written-out twins in core/eigen_order, which give the
// same bits (tests/core/eigen_order_test.cpp), at the sizes where the algorithms call them: the symmetric
// product (every Lanczos step on a covariance, d >= 200; every step of a tridiagonalisation) and the
// Householder tridiagonalisation of a Gram matrix (the largest eigenvalue of PRIVRANGE's and liu2022
// Alg. 4's blocks, 50 to 200 on a side). Median CPU time of each side and Eigen's over ours, measured in one
// run; each pair's outputs are compared bit for bit, and the summary says whether they agree.
#include <benchmark/benchmark.h>

#include <fmt/format.h>
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench/support/timing.hpp"
#include "core/eigen_order.hpp"

namespace {

using namespace dpb;

constexpr double kWorkPerTiming = 2e7;  // flops per timing: a few milliseconds, far above the clock's grain

// CPU seconds per call of every iteration of each benchmark, for the summary's medians.
std::map<std::string, std::vector<double>>& seconds_by_name() {
  static std::map<std::string, std::vector<double>> all;
  return all;
}

std::string key(const char* kernel, const char* side, Eigen::Index n) {
  return fmt::format("{}/{}/{}", kernel, side, n);
}

// A symmetric positive semi-definite n x n matrix with NaN above the diagonal (neither side may read it).
Eigen::MatrixXd lower_gram(Eigen::Index n) {
  std::srand(7);
  const Eigen::MatrixXd D = Eigen::MatrixXd::Random(n, n);
  Eigen::MatrixXd S = D * D.transpose() / double(n);
  S.triangularView<Eigen::StrictlyUpper>().setConstant(std::nan(""));
  return S;
}

template <class F>
void timed(benchmark::State& state, const std::string& name, long calls, F&& call) {
  for (auto _ : state) {
    const double start = bench::thread_cpu_seconds();
    for (long c = 0; c < calls; ++c) call();
    seconds_by_name()[name].push_back((bench::thread_cpu_seconds() - start) / double(calls));
  }
}

long calls_for(double flops) { return std::max(1L, static_cast<long>(kWorkPerTiming / flops)); }

bool same_bits(const double* a, const double* b, Eigen::Index count) {
  return std::memcmp(a, b, sizeof(double) * static_cast<std::size_t>(count)) == 0;
}

// y = S x: Eigen's selfadjoint product (Spectra's DenseSymMatProd), and symmetric_product_as_eigen.
void symmetric_product(bool ours, const Eigen::MatrixXd& S, const Eigen::VectorXd& x, Eigen::VectorXd& y) {
  if (ours)
    core::symmetric_product_as_eigen(S.data(), S.rows(), S.outerStride(), x.data(), y.data());
  else
    y.noalias() = S.selfadjointView<Eigen::Lower>() * x;
}

// The packed tridiagonal form (A's lower triangle) and reflector coefficients: Eigen's Tridiagonalization,
// and tridiagonalize_as_eigen. Each copies S first, as Eigen's compute() does.
struct Tridiagonal {
  Tridiagonal(Eigen::Index n, bool written_out) : eigen(n), A(n, n), householder(n - 1), ours(written_out) {}
  Eigen::Tridiagonalization<Eigen::MatrixXd> eigen;
  Eigen::MatrixXd A;
  Eigen::VectorXd householder;
  bool ours;
  void compute(const Eigen::MatrixXd& S) {
    if (ours) {
      A = S;
      core::tridiagonalize_as_eigen(A, householder);
    } else {
      eigen.compute(S);
    }
  }
  const Eigen::MatrixXd& packed() const { return ours ? A : eigen.packedMatrix(); }
  Eigen::VectorXd coefficients() const {  // Eigen's accessor returns a copy, with one more entry at n = 1
    return ours ? householder : Eigen::VectorXd(eigen.householderCoefficients().head(A.rows() - 1));
  }
};

void BM_symmetric_product(benchmark::State& state, bool ours) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd S = lower_gram(n);
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
  Eigen::VectorXd y(n);
  timed(state, key("symmetric_product", ours ? "ours" : "eigen", n), calls_for(2.0 * double(n * n)), [&] {
    symmetric_product(ours, S, x, y);
    benchmark::DoNotOptimize(y.data());
  });
}

void BM_tridiagonalize(benchmark::State& state, bool ours) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd S = lower_gram(n);
  Tridiagonal t(n, ours);
  const double flops = 4.0 / 3.0 * double(n) * double(n) * double(n);
  timed(state, key("tridiagonalize", ours ? "ours" : "eigen", n), calls_for(flops), [&] {
    t.compute(S);
    benchmark::DoNotOptimize(t.packed().data());
  });
}

bool symmetric_product_agrees(Eigen::Index n) {
  const Eigen::MatrixXd S = lower_gram(n);
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
  Eigen::VectorXd theirs(n), ours(n);
  symmetric_product(false, S, x, theirs);
  symmetric_product(true, S, x, ours);
  return same_bits(theirs.data(), ours.data(), n);
}

bool tridiagonalization_agrees(Eigen::Index n) {
  const Eigen::MatrixXd S = lower_gram(n);
  Tridiagonal theirs(n, false), ours(n, true);
  theirs.compute(S);
  ours.compute(S);
  bool same = same_bits(theirs.coefficients().data(), ours.coefficients().data(), n - 1);
  for (Eigen::Index j = 0; j < n; ++j)  // the lower triangle
    same = same && same_bits(&theirs.packed()(j, j), &ours.packed()(j, j), n - j);
  return same;
}

struct Kernel {
  const char* name;
  void (*run)(benchmark::State&, bool);
  bool (*agrees)(Eigen::Index);
  std::vector<Eigen::Index> sizes;
};

const std::vector<Kernel>& kernels() {
  static const std::vector<Kernel> all = {
      {"symmetric_product", BM_symmetric_product, symmetric_product_agrees, {50, 100, 200, 500, 1000}},
      {"tridiagonalize", BM_tridiagonalize, tridiagonalization_agrees, {50, 100, 200, 400}}};
  return all;
}

void print_summary() {
  fmt::print(
      "\nEigen's kernels beside core/eigen_order's (median CPU time per call, Eigen's over ours measured in "
      "this "
      "run; \"same bits\": every output compared):\n\n"
      "| kernel | n | Eigen | dpbounds | Eigen / dpbounds | same bits |\n|---|---|---|---|---|---|\n");
  for (const Kernel& kernel : kernels())
    for (const Eigen::Index n : kernel.sizes) {
      const auto theirs = seconds_by_name().find(key(kernel.name, "eigen", n));
      const auto ours = seconds_by_name().find(key(kernel.name, "ours", n));
      if (theirs == seconds_by_name().end() || ours == seconds_by_name().end()) continue;  // filtered out
      const double theirs_us = bench::median(theirs->second) * 1e6,
                   ours_us = bench::median(ours->second) * 1e6;
      fmt::print("| {} | {} | {:.3g} us | {:.3g} us | {:.2f}x | {} |\n", kernel.name, n, theirs_us, ours_us,
                 theirs_us / ours_us, kernel.agrees(n) ? "yes" : "NO");
    }
  if (!core::kEigenOrderWrittenOut)
    fmt::print("\nThis build calls Eigen on both sides (core::kEigenOrderWrittenOut is false here).\n");
}

}  // namespace

int main(int argc, char** argv) {
  for (const Kernel& kernel : kernels())
    for (const bool ours : {false, true})
      for (const Eigen::Index n : kernel.sizes)
        benchmark::RegisterBenchmark(fmt::format("{}/{}", kernel.name, ours ? "ours" : "eigen").c_str(),
                                     kernel.run, ours)
            ->Arg(n)
            ->MinTime(0.2);
  return dpb::bench::run_benchmarks(argc, argv, print_summary);
}
