#pragma once
// liu2022 Algorithm 2: Private Oja (uniform shuffle, clipping, Gaussian noise on every step).
#include <cstdint>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/pca/liu2022_common.hpp"

namespace dpb::alg {

struct PrivateOjaParams {
  enum class Schedule {
    theory,        // App. D.3: eta_t = h/((lambda1 - lambda2)(xi + t)), h = c log n, xi of Eq. (52) (oracle)
    inverse_time,  // eta_t = c1/(c2 + t) (spec: liu2022 §2.8)
    constant,      // eta_t = eta (cai2024 §2.8's DP-Oja: 0.5/n)
  };
  enum class NoiseCalibration {
    proven,            // the smaller alpha of shuffling_bound and the exact no-amplification one: a proven
                       // (eps, delta) at the run's (n, eps, delta) (the default)
    lemma3_1,          // alpha = C' log(n/delta)/(eps sqrt n) (line 2, the paper's reading: Lemma 3.1 is
                       // asymptotic with an unspecified C'; the claim is the eps the ledger computes)
    shuffling_bound,   // smallest alpha for which the explicit shuffling bound of spec §3.1 gives <= eps
    no_amplification,  // alpha = sqrt(2 log(1.25/delta))/eps: each sample enters one step (eps < 1)
  };
  // cai2024 §2.8's DP-Oja: the whole parameter set of cai2024_dp_oja() (with_preset).
  enum class Preset { none, cai2024_dp_oja };
  Preset preset = Preset::none;
  Schedule schedule = Schedule::inverse_time;
  NoiseCalibration calibration = NoiseCalibration::proven;
  double clip_constant = 1;    // C of line 3 (Lemma 3.2: C = 1 suffices)
  double noise_constant = 1;   // C' of line 2 (unspecified in the paper; exposed)
  bool shuffle = true;         // line 1
  bool faithful = false;       // true: log^a(nd/zeta) as printed; false: log^a(2nd/zeta) (ambiguity 1)
  double lr_log_constant = 1;  // c in h = c log n (theory schedule)
  double C2 = 1, C3 = 2;       // App. D.3 (C2 = 1 exactly, C3 = 2)
  liu2022::PracticalScheduleParams practical;
  double zeta = 0.01;
  liu2022::ModelConstantParams constants;

  // cai2024 §2.8 / §6 "DP-Oja": C = 0.2, eta = 0.5/n, C' = 1, K = 4, a = 1, gamma = 1, zeta = 0.01.
  static PrivateOjaParams cai2024_dp_oja();
};

// `p`, or the parameters its preset stands for (which then replace every other value).
PrivateOjaParams with_preset(const PrivateOjaParams& p);

// What a run resolves to: the constants of lines 2-3 and the step schedule.
struct PrivateOjaSetup {
  double noise_multiplier = 0;  // alpha of line 2
  double clip = 0;              // beta of line 3
  liu2022::StepSchedule eta;
  liu2022::ModelConstants constants;
};

class PrivateOja final : public Estimator {
 public:
  explicit PrivateOja(PrivateOjaParams params);

  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;
  Estimate run_observed(const Input& in, core::Rng& rng, const liu2022::StepObserver& observer) const;
  PrivateOjaSetup setup(const Input& in) const;
  // The ledger entry of the n noisy steps (per step: sensitivity 2 eta_t beta of eta_t clip_beta(A_t w),
  // noise 2 eta_t beta alpha; written here for eta_t = 1, the ratio is what matters).
  LedgerEntry step_entry(const Input& in, const PrivateOjaSetup& s) const;

 private:
  PrivateOjaParams params_;
};

}  // namespace dpb::alg
