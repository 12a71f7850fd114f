#pragma once
// liu2022 Algorithm 1: (non-private) Oja's algorithm, one pass over A_1..A_n.
#include "algorithms/pca/liu2022_common.hpp"

namespace dpb::alg {

struct OjaParams {
  enum class Schedule {
    theory,        // Thm 2.2: eta_t = alpha / ((lambda1 - lambda2)(xi + t)), xi of §2.1 (oracle)
    inverse_time,  // eta_t = c1 / (c2 + t) (spec: liu2022 §2.8)
  };
  Schedule schedule = Schedule::inverse_time;
  double lr_mult = 1;  // alpha > 1/2 of Thm 2.2; also the default c1 = lr_mult / gap
  double c1 = 0;       // 0: lr_mult / (lambda1 - lambda2) from the oracle
  double c2 = 1;
  double zeta = 0.01;
  liu2022::ModelConstantParams constants;
};

// Algorithm 1 (spec: liu2022 §2.1). Non-private: its claim says so (scope not_private).
class Oja final : public Estimator {
 public:
  explicit Oja(OjaParams params);

  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;
  // run() with an observer called after every step (tests).
  Estimate run_observed(const Input& in, core::Rng& rng, const liu2022::StepObserver& observer) const;
  // The step schedule this input resolves to (reads the oracle where the parameters say so).
  liu2022::StepSchedule schedule(const Input& in) const;

 private:
  OjaParams params_;
};

}  // namespace dpb::alg
