#pragma once
// An estimator made of two functions of its parameters, run(in, params, rng) and claim(params, in): the shape
// of dugler2026's algorithms (algorithms/pca/dugler2026_registry.cpp) and of the mutants that break them.
#include <functional>
#include <memory>
#include <utility>

#include "algorithms/registry.hpp"

namespace dpb::alg {

class FunctionEstimator final : public Estimator {
 public:
  using RunFn = std::function<Estimate(const Input&, core::Rng&)>;
  using ClaimFn = std::function<PrivacyClaim(const Input&)>;
  FunctionEstimator(RunFn run, ClaimFn claim) : run_(std::move(run)), claim_(std::move(claim)) {}
  Estimate run(const Input& in, core::Rng& rng) const override { return run_(in, rng); }
  PrivacyClaim claim(const Input& in) const override { return claim_(in); }

 private:
  RunFn run_;
  ClaimFn claim_;
};

// The estimator running `run` and claiming `claim` with the parameters `p`.
template <class Params, class Run, class Claim>
std::unique_ptr<Estimator> make_function_estimator(Params p, Run run, Claim claim) {
  return std::make_unique<FunctionEstimator>([p, run](const Input& in, core::Rng& rng) { return run(in, p, rng); },
                                             [p, claim](const Input& in) { return claim(p, in); });
}

// The `make` of with_parameters (algorithms/param_fields.hpp) for such an algorithm.
template <class Run, class Claim>
auto function_estimator(Run run, Claim claim) {
  return [run, claim](auto params) { return make_function_estimator(std::move(params), run, claim); };
}

}  // namespace dpb::alg
