#pragma once
// liu2022 Algorithm 3: DP-PCA. Minibatch Oja whose gradient is a private mean (Alg. 5) scaled by a
// private top-eigenvalue estimate (Alg. 4) computed on the first half of each minibatch.
#include "algorithms/pca/liu2022_common.hpp"
#include "algorithms/pca/private_mean.hpp"
#include "algorithms/pca/private_top_eigenvalue.hpp"

namespace dpb::alg {

struct DpPcaParams {
  enum class Schedule {
    theory,        // Eq. (60): eta_t = alpha/((lambda1 - lambda2)(xi + t)), alpha = c log n (oracle)
    inverse_time,  // eta_t = c1/(c2 + t) (spec: liu2022 §2.4 practicality warning, §2.8)
  };
  // What to do when Alg. 4 returns BOTTOM or the [0, 0] bin (spec: liu2022 §2.5, ambiguity 15). Both
  // are post-processing of DP outputs.
  enum class BottomPolicy {
    skip,   // w_t = w_{t-1}
    floor,  // Lambda_hat_t = max(Lambda_hat_t, lambda_min) (lambda_min > 0 required)
  };
  Schedule schedule = Schedule::inverse_time;
  long long T = 0;             // number of steps; 0: ceil((log n)^2) unless B is given
  long long B = 0;             // minibatch size; 0: floor(n/T). Give T or B, not both.
  double lr_log_constant = 1;  // c in alpha = c log n (theory schedule)
  double C2 = 1, C3 = 2;       // Eq. (60) constants (spec: liu2022 ambiguity 16)
  liu2022::PracticalScheduleParams practical;
  double eig_multiplier_to_alg5 = 2;  // line 5's "2 Lambda_hat_t" (spec: liu2022 ambiguity 7)
  BottomPolicy bottom_policy = BottomPolicy::skip;
  double lambda_min = 0;
  TopEigenvalueOptions top;  // C1, halve_difference_scale
  PrivateMeanOptions mean;   // tau log argument, truncation and noise multipliers (K, a from constants)
  double zeta = 0.01;
  liu2022::ModelConstantParams constants;
};

struct DpPcaSetup {
  Eigen::Index T = 0, B = 0, half = 0;
  Eigen::Index paper_T = 0;  // ceil((log n)^2) when neither T nor B was given (T is then at most this)
  liu2022::StepSchedule eta;
};

class DpPca final : public Estimator {
 public:
  explicit DpPca(DpPcaParams params);

  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;
  // The observer sees noise_free = w_{t-1} + eta_t mu~ (Alg. 5's truncated mean) and noisy = w'_t, with
  // lambda_hat = the approximate eigenvalue handed to Alg. 5.
  Estimate run_observed(const Input& in, core::Rng& rng, const liu2022::StepObserver& observer) const;
  DpPcaSetup setup(const Input& in) const;

 private:
  DpPcaParams params_;
};

}  // namespace dpb::alg
