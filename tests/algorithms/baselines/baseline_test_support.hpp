#pragma once
// Shared fixtures of the [baselines] tests: inputs, running a registered baseline with a seed, spiked
// Gaussian data, and the "error shrinks with n" check every private baseline gets.
#include <Eigen/Dense>
#include <memory>
#include <string>

#include "algorithms/registry.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "core/rng.hpp"

namespace dpb::test::baselines {

inline alg::Input input(const Eigen::MatrixXd& X, int k, double eps, double delta,
                        const core::ModelInfo* oracle = nullptr,
                        alg::Neighbours neighbours = alg::Neighbours::replace) {
  alg::Input in;
  in.X = &X;
  in.k = k;
  in.privacy = {eps, delta, neighbours};
  in.oracle = oracle;
  return in;
}

inline alg::Estimate run(const std::string& id, const core::ParamMap& params, const alg::Input& in,
                         std::uint64_t seed) {
  core::Rng rng(seed, core::stream_id("baselines-test", 0, id, seed, "noise"));
  return alg::algorithm_registry().make(id, params)->run(in, rng);
}

struct SpikedData {
  std::unique_ptr<core::Model> model;
  Eigen::MatrixXd X;
  const core::ModelInfo& info() const { return model->info(); }
};

// spiked_gaussian with sigma2 = 1: d, r spikes of size lambda, n samples; U and X from `seed`.
inline SpikedData spiked(long d, long r, double lambda, long n, std::uint64_t seed) {
  core::Rng model_rng(seed, 1), data_rng(seed, 2);
  SpikedData s;
  s.model =
      core::make_model("spiked_gaussian",
                       {{"d", double(d)}, {"r", double(r)}, {"lambda", lambda}, {"sigma2", 1.0}}, model_rng);
  s.X = s.model->sample(n, data_rng);
  return s;
}

inline double subspace_error(const alg::Estimate& e, const core::ModelInfo& info) {
  return core::projector_distance(*e.Q, info.target, {core::Norm::fro});
}

// Mean projector error over `trials` fresh datasets of size n (d = 10, r = k = 1, lambda = 5, eps = 1,
// delta = 0.01, oracle given).
inline double mean_error(const std::string& id, const core::ParamMap& params, long n, int trials) {
  double total = 0;
  for (int t = 0; t < trials; ++t) {
    const SpikedData s = spiked(10, 1, 5.0, n, 100 + t);
    total += subspace_error(run(id, params, input(s.X, 1, 1.0, 0.01, &s.info()), 7 + t), s.info());
  }
  return total / trials;
}

}  // namespace dpb::test::baselines
