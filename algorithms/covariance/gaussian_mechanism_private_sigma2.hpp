#pragma once
// cai2024 Thm 5.2: Algorithm 1 with the nuisance variance sigma^2 replaced by its private estimate
// sigmatil^2 (§5.3). The budget goes in thirds: sigmatil^2, Util and Lamtil each get (eps/3, delta/3),
// i.e. noise variance 18 Delta^2 log(3.75/delta)/eps^2 (spec: cai2024 A6). sigmatil^2 replaces
// sigma^2 in Delta1, Delta2, in step 3 and in step 4. Private only under the model, like Algorithm 1.
#include <memory>

#include "algorithms/covariance/gaussian_mechanism_pca.hpp"
#include "algorithms/covariance/private_noise_variance.hpp"
#include "algorithms/registry.hpp"
#include "core/params.hpp"

namespace dpb::alg {

struct PrivateSigma2Params {
  // Algorithm 1's constants (pca_share is unused: the split is fixed below). Its `sigma2`, when
  // given, is the public value Delta3 needs (circular otherwise, spec: cai2024 A5); steps 2-4 always
  // use sigmatil^2.
  GaussianMechanismParams mechanism;
  NoiseVarianceParams variance;  // C4, index shift, bulk range, quadrature tolerance
  // Delta1 and Delta2 use sigma2_inflation * sigmatil^2 (>= 1; spec: cai2024 §2.4 suggests 10/9 for
  // safety since 0.9 sigma^2 <= sigmatil^2 w.h.p.). Default 1: the paper's plug-in.
  double sigma2_inflation = 1.0;
  // faithful: the literal "Algorithm 1 with (eps/3, delta/3)": Util and Lamtil get (eps/6, delta/6)
  // each and the total is (2 eps/3, 2 delta/3). Default (false): thirds, spec: cai2024 A6.
  bool faithful_split = false;
};

// `cai2024.gaussian_mechanism_private_sigma2`: Estimate as for cai2024.gaussian_mechanism, plus
// scalar = sigmatil^2.
std::unique_ptr<Estimator> make_gaussian_mechanism_private_sigma2(PrivateSigma2Params params);

}  // namespace dpb::alg
