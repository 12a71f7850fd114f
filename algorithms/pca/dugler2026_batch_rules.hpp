#pragma once
// Batch rules of dugler2026 (spec §7 F.2, ambiguities 2, 10, 13, 15): B = sqrt(n), B = n / log n, a fixed
// B, or Theorem 3's logarithmic step count T = ceil(C_T log(n d k / (zeta delta eps))); even rounding
// B = 2 floor(B/2) where the algorithm splits batches in halves; feasibility auto-increase.
#include <functional>
#include <string>
#include <vector>

#include "algorithms/param_fields.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg::dugler2026 {

enum class BatchRule { n_over_log_n, sqrt_n, fixed, theory_steps };

struct BatchSettings {
  BatchRule rule = BatchRule::n_over_log_n;
  Eigen::Index batch_size = 0;  // for rule = fixed
  Eigen::Index steps = 0;       // for rule = theory_steps: T directly when > 0 (ambiguity 3)
  double C_T = 1.0;             // for rule = theory_steps when steps = 0 (universal, unspecified)
  bool auto_increase = true;    // raise B to the smallest feasible size instead of refusing
};

struct BatchPlan {
  Eigen::Index B = 0;          // batch size used
  Eigen::Index T = 0;          // floor(n / B) steps
  Eigen::Index requested = 0;  // what the rule gave
  bool increased = false;      // B raised for feasibility
};

// What a batch needs: the smallest feasible B for a plan of T steps (T enters through zeta/(cT)), and
// why, in words, for the error message.
struct BatchRequirement {
  std::function<Eigen::Index(Eigen::Index T)> min_batch;
  std::function<std::string(Eigen::Index T)> why;
};

// n d k / (zeta delta eps): the argument of the log in Theorem 1's number of steps (rule theory_steps).
double theory_log_argument(Eigen::Index n, Eigen::Index d, Eigen::Index k, double zeta, const Privacy& privacy);

// 2 floor(x / 2) (ambiguity 13), at least 2.
Eigen::Index even_floor(double x);

// The plan for n samples. `even`: B must be even (Alg. 2, 3 split each batch in halves).
// `theory_log_argument` = n d k / (zeta delta eps) for rule = theory_steps. Throws dpb::InvalidArgument
// naming the required batch size (auto_increase off) or the required n (no feasible B <= n).
BatchPlan plan_batches(const BatchSettings& s, Eigen::Index n, bool even, double theory_log_argument,
                       const BatchRequirement& requirement, const std::string& owner,
                       const std::string& prefix = "");

// The settings' parameters (batch_rule, batch_size, steps, C_T, auto_increase): schema and reader.
const FieldTable<BatchSettings>& batch_fields();

}  // namespace dpb::alg::dugler2026
