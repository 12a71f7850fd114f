#pragma once
// liu2022 Section 4, Eq. (7): minibatch Private Oja, as corrected in spec §2.3 (noise coefficient 2, B
// terms per minibatch) and with the noise multiplier set by serial or parallel composition.
#include "algorithms/pca/liu2022_common.hpp"

namespace dpb::alg {

struct MinibatchPrivateOjaParams {
  enum class Composition {
    serial,    // per-step budget (eps/T, delta/T), Lemma B.3: what the text literally claims (default)
    parallel,  // disjoint minibatches, Lemma B.2: per-step budget (eps, delta)
  };
  Composition composition = Composition::serial;
  long long T = 0;           // number of steps; 0: ceil((log n)^2) (spec: liu2022 §8.1)
  bool faithful = false;     // true: the printed sum up to Bt - 1 (B - 1 terms) and log^a(nd/zeta)
  double clip_constant = 1;  // C of Alg. 2 line 3
  liu2022::PracticalScheduleParams practical;
  double zeta = 0.01;
  liu2022::ModelConstantParams constants;
};

struct MinibatchPrivateOjaSetup {
  Eigen::Index T = 0, B = 0;
  double noise_multiplier = 0;  // alpha
  double clip = 0;              // beta
  liu2022::StepSchedule eta;
};

class MinibatchPrivateOja final : public Estimator {
 public:
  explicit MinibatchPrivateOja(MinibatchPrivateOjaParams params);

  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;
  Estimate run_observed(const Input& in, core::Rng& rng, const liu2022::StepObserver& observer) const;
  MinibatchPrivateOjaSetup setup(const Input& in) const;

 private:
  MinibatchPrivateOjaParams params_;
};

}  // namespace dpb::alg
