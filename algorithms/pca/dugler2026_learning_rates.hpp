#pragma once
// Learning-rate families of dugler2026 App. F.2 (spec §7 F.2) plus a constant rate (spec §8 item 1,
// "constant eta <= c/lambda_1 for TADADPO").
#include <string>
#include <vector>

#include "algorithms/param_fields.hpp"
#include "algorithms/registry.hpp"

namespace dpb::alg::dugler2026 {

enum class LearningRateFamily {
  step_decay,      // eta_t = 1/(t + c) for t <= tau = ceil(rho T), then (1/(t + c)) ((tau + c)/(t + c))^p
  lambda1_spiked,  // eta_t = 1/(s sigma lambda~_1 + Delta t / log n), s = 20
  dim_scaled,      // eta_t = 1/(s sigma lambda~_1 d + Delta t / log n)
  constant,        // eta_t = eta
};

enum class GapChoice { leading, kth };  // Delta_1 = lambda~_1 - lambda~_2 (as printed) or Delta_k

struct LearningRateSettings {
  LearningRateFamily family = LearningRateFamily::step_decay;
  double offset = 10.0;  // c ("learning-rate offset 10.0" for ADADPO)
  double cutoff = 0.5;   // rho in (0, 1]
  double power = 0.5;    // p >= 0; candidates (rho, p) in {(1/2, 1/2), (1/3, 2)}
  double scale = 20.0;   // the 20 of families 2 and 3
  double eta = 0.05;     // constant rate
  GapChoice gap = GapChoice::leading;
  // Oracle quantities of families 2-3; 0 means "read Input.oracle" (spec ambiguity 3: lambda~_j are
  // the population eigenvalues of Sigma, sigma the data noise level).
  double lambda1 = 0, gap_value = 0, sigma = 0;
};

// A resolved schedule: eta(t) for t = 1..T.
class LearningRate {
 public:
  LearningRate() = default;
  LearningRate(LearningRateSettings s, Eigen::Index T, double n_log, double d, double lambda1, double gap,
               double sigma);
  double operator()(Eigen::Index t) const;
  Eigen::Index steps() const { return T_; }

 private:
  LearningRateSettings s_;
  Eigen::Index T_ = 0;
  double log_n_ = 1, d_ = 1, lambda1_ = 0, gap_ = 0, sigma_ = 0;
};

// Resolves the schedule for T steps of an algorithm run on n samples in dimension d with target rank k;
// families 2-3 read lambda~_1, Delta and sigma from the settings or, where 0, from Input.oracle
// (dpb::InvalidArgument naming the parameter to give when the oracle is absent).
LearningRate make_learning_rate(const LearningRateSettings& s, const Input& in, Eigen::Index n,
                                Eigen::Index T, const std::string& owner, const std::string& prefix = "");

// The settings' parameters (learning_rate, lr_offset, ..., lr_sigma): schema and reader.
const FieldTable<LearningRateSettings>& learning_rate_fields();
// Oracle quantities the schedule may read (for AlgorithmEntry::oracle_quantities).
std::vector<std::string> learning_rate_oracle_quantities();

}  // namespace dpb::alg::dugler2026
