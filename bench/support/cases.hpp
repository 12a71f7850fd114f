#pragma once
// What the algorithm benchmarks run (issue "benchmark suite"): every registered algorithm except the
// mutants and external.command, at its family's standard sizes, on its paper's model, with the
// parameters that make the standard sizes feasible. The floor a trial is measured against depends on
// the family (DESIGN.md §7).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "algorithms/privacy.hpp"

namespace dpb::bench {

enum class Family {
  oja,         // A_i Q per sample: floor = generating the trial's data; expected cost O(n d k)
  covariance,  // floor = data + sample covariance + its top-k eigenpairs; expected O(n p^2 + p^3)
};

struct Size {
  long n = 0;
  long d = 0;  // d for the Oja family, p for the covariance family
  int k = 1;
};

// Unavoidable work: floating-point operations and bytes read, for the arithmetic floor
// (bench/support/machine_peak.hpp).
struct Work {
  double flops = 0;
  double bytes = 0;
};

// The work every algorithm of a family must do: the Oja family reads each sample once and forms x_i^T Q and
// x_i (x_i^T Q) (4 d k flops, d doubles each); the covariance family forms X X^T (n p^2 flops for the
// symmetric product, n p doubles read). Noise, eigenproblems and the data's generation are left out, so at
// the machine's peak this is a floor no implementation of the family can beat.
Work unavoidable_work(Family family, const Size& size);

struct AlgorithmCase {
  std::string id;
  Family family = Family::oja;
  std::string model;             // core::make_model id
  // The algorithm's parameters at a size (registry defaults for those not given).
  std::function<core::ParamMap(const Size&)> params = [](const Size&) { return core::ParamMap{}; };
  std::optional<double> budget;  // the target ratio to the floor, where one is set
  std::vector<int> k_values;     // the ranks it can estimate among the standard ones (empty: all)
  // Its unavoidable work at a size: what its printed box computes (box_work true), where that is derived,
  // else the family's (a mean, which reads each record once, and a diagnostic of one minibatch do less).
  std::function<Work(const Size&)> work;
  bool box_work = false;
};

// The standard sizes of a family: Oja n in {1e4, 1e5} x d in {50, 200} x k in {1, 5}, and issue 3's
// performance target n = 1e5, d = 100, k in {1, 5}; covariance
// n in {1e3, 1e4} x p in {50, 200, 500} (k = 3 spikes).
std::vector<Size> standard_sizes(Family family);

// One case per registered algorithm (mutants and external.command excluded), in registry order.
std::vector<AlgorithmCase> algorithm_cases();

// The model's parameters at a size, and the privacy budget the case runs at.
core::ParamMap model_params(const AlgorithmCase& c, const Size& size);
alg::Privacy privacy(const AlgorithmCase& c, const Size& size);

// What the cost model O(n d k) or O(n p^2 + p^3) predicts, up to a constant.
double expected_cost(Family family, const Size& size);

std::string to_string(Family family);

}  // namespace dpb::bench
