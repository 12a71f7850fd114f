#pragma once
// Shared fixtures of the [baselines] tests: inputs, running a registered baseline with a seed, spiked
// Gaussian data, hand-built PSD samples, and the "error shrinks with n" check every private baseline gets.
#include <Eigen/Dense>
#include <memory>
#include <string>

#include "algorithms/registry.hpp"
#include "core/metrics.hpp"
#include "core/models/model.hpp"
#include "core/rng.hpp"
#include "core/sample_matrices.hpp"

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

// Five hand-built samples in d = 4 (columns) with traces ||x||^2 = 2, 9, 4, 0, 3 and l1 norms 2, 3, 4, 0, 3
// (x1 and x2 have negative entries, x3 is zero).
inline Eigen::MatrixXd hand_vectors() {
  Eigen::MatrixXd X(4, 5);
  X.col(0) << 1, 1, 0, 0;
  X.col(1) << -3, 0, 0, 0;
  X.col(2) << 1, -1, 1, 1;
  X.col(3) << 0, 0, 0, 0;
  X.col(4) << 1, 1, -1, 0;
  return X;
}

// The same vectors as A_i = C + x_i x_i^T with C = 3 e1 e1^T: diag(A_i) = (3 + x_i1^2, x_i2^2, ...), so the
// traces are 5, 12, 7, 3, 6 and sum_j sqrt((A_i)_jj) = 3, sqrt 12, 5, sqrt 3, 4.
inline core::ShiftedVectorSamples hand_shifted() {
  return {Eigen::MatrixXd::Identity(4, 1), Eigen::VectorXd::Constant(1, 3.0), hand_vectors()};
}

// An Input that carries only sample matrices (no Input::X).
inline alg::Input samples_input(const core::SampleMatrices& samples) {
  alg::Input in;
  in.samples = &samples;
  return in;
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
