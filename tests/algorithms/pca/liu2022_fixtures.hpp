#pragma once
// Shared data for the liu2022 tests: a small spiked Gaussian model (lambda1 = 5, lambda2 = 1, so the gap
// is 4 and kappa = 5/4) and Input builders. Everything is seeded, so every test is deterministic.
#include <memory>

#include "algorithms/registry.hpp"
#include "core/models/model.hpp"
#include "core/rng.hpp"
#include "core/samplers.hpp"

namespace dpb::test::liu2022 {

struct SpikedData {
  std::unique_ptr<core::Model> model;
  std::unique_ptr<core::SampleMatrices> samples;
  Eigen::MatrixXd X;  // the same vectors as `samples`
  const core::ModelInfo& info() const { return model->info(); }
};

// Spiked Gaussian, Sigma = 4 v v^T + I (lambda1 = 5, lambda2 = 1), d dimensions, n samples.
inline SpikedData spiked(Eigen::Index d, Eigen::Index n, std::uint64_t seed, double spike = 4.0) {
  core::Rng rng(seed, core::hash_name("liu2022 test data"));
  SpikedData s;
  s.model = core::make_model("spiked_gaussian",
                             {{"d", static_cast<double>(d)}, {"lambda", spike}, {"sigma2", 1.0}}, rng);
  s.X = s.model->sample(n, rng);
  s.samples = std::make_unique<core::VectorSamples>(s.X);
  return s;
}

// The fixture's constants given explicitly, so a test needs no oracle: lambda1 = 5, gamma = 1, and the
// learning rate c1/(c2 + t) with c1 = 1/gap = 0.25, c2 = 1. For any params with `constants` and `practical`
// (Private Oja, Minibatch Private Oja).
template <class Params>
Params with_explicit_constants(Params p) {
  p.constants.lambda1 = 5;
  p.constants.gamma = 1;
  p.practical.c1 = 0.25;
  p.practical.c2 = 1;
  return p;
}

inline alg::Input input(const core::SampleMatrices& samples, double eps, double delta,
                        const core::ModelInfo* oracle = nullptr) {
  alg::Input in;
  in.samples = &samples;
  in.privacy = {eps, delta, alg::Neighbours::replace};
  in.oracle = oracle;
  return in;
}

// A_i w = s_i w (A_i = s_i I): scales chosen by the test, so Alg. 4's subset eigenvalues are known.
class ScaledIdentitySamples final : public core::SampleMatrices {
 public:
  ScaledIdentitySamples(Eigen::VectorXd scales, Eigen::Index d) : s_(std::move(scales)), d_(d) {}
  Eigen::Index n() const override { return s_.size(); }
  Eigen::Index d() const override { return d_; }
  void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
             Eigen::Ref<Eigen::MatrixXd> out) const override {
    out = s_[i] * Q;
  }

 private:
  Eigen::VectorXd s_;
  Eigen::Index d_;
};

// n samples of the spiked Gaussian Sigma = (l1 - l2) e1 e1^T + l2 I, generated on the fly: x_i depends only
// on (seed, i), so each A_i = x_i x_i^T is well defined and nothing of size n is stored (for tests at n in
// the millions). Not thread-safe (one buffer).
class StreamingSpikedSamples final : public core::SampleMatrices {
 public:
  StreamingSpikedSamples(Eigen::Index n, Eigen::Index d, std::uint64_t seed, double l1 = 5, double l2 = 1)
      : n_(n), seed_(seed), s1_(std::sqrt(l1)), s2_(std::sqrt(l2)), x_(d) {}
  Eigen::Index n() const override { return n_; }
  Eigen::Index d() const override { return x_.size(); }
  void apply(Eigen::Index i, const Eigen::Ref<const Eigen::MatrixXd>& Q,
             Eigen::Ref<Eigen::MatrixXd> out) const override {
    core::Rng rng(seed_, static_cast<std::uint64_t>(i));
    for (Eigen::Index j = 0; j < x_.size(); ++j) x_[j] = (j == 0 ? s1_ : s2_) * core::standard_normal(rng);
    for (Eigen::Index c = 0; c < Q.cols(); ++c) out.col(c) = x_ * x_.dot(Q.col(c));
  }

 private:
  Eigen::Index n_;
  std::uint64_t seed_;
  double s1_, s2_;
  mutable Eigen::VectorXd x_;
};

}  // namespace dpb::test::liu2022
