#pragma once
// Spiked-model data for the cai2024 tests: a model instance (its oracle carries lambda and sigma2)
// and an Input over its samples.
#include <Eigen/Dense>
#include <memory>

#include "algorithms/registry.hpp"
#include "core/models/model.hpp"
#include "core/rng.hpp"

namespace dpb::test {

struct SpikedData {
  std::unique_ptr<core::Model> model;
  Eigen::MatrixXd X;  // p x n
  alg::Input input(double epsilon, double delta) const {
    alg::Input in;
    in.X = &X;
    in.k = static_cast<int>(model->info().r());
    in.privacy.epsilon = epsilon;
    in.privacy.delta = delta;
    in.oracle = &model->info();
    return in;
  }
};

// spiked_gaussian with equal spikes lambda and sigma^2 = sigma2; n samples; all from `seed`.
inline SpikedData spiked_data(Eigen::Index n, Eigen::Index p, Eigen::Index r, double lambda, double sigma2,
                              std::uint64_t seed) {
  core::Rng rng(seed, 1);
  SpikedData data;
  data.model = core::make_model(
      "spiked_gaussian",
      {{"p", static_cast<double>(p)}, {"r", static_cast<double>(r)}, {"lambda", lambda}, {"sigma2", sigma2}},
      rng);
  data.X = data.model->sample(n, rng);
  return data;
}

}  // namespace dpb::test
