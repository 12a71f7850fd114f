#include "algorithms/pca/minibatch_gradients.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/samplers.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "liu2022.minibatch_gradients";
}

MinibatchGradients::MinibatchGradients(MinibatchGradientsParams params) : params_(params) {
  if (params_.batch < 2) throw InvalidArgument(fmt::format("{}: batch must be >= 2", kOwner));
}

PrivacyClaim MinibatchGradients::claim(const Input&) const {
  PrivacyClaim c;
  c.scope = ClaimScope::not_private;
  c.conditions = {"not private: a diagnostic of the data (liu2022 Figure 1)"};
  return c;
}

Estimate MinibatchGradients::run(const Input& in, core::Rng& rng) const {
  if (in.samples == nullptr) throw InvalidArgument(fmt::format("{} needs sample matrices", kOwner));
  const core::SampleMatrices& A = *in.samples;
  if (A.n() < params_.batch)
    throw InvalidArgument(fmt::format("{}: batch = {} needs n >= batch, got n = {}", kOwner, params_.batch, A.n()));
  const Eigen::MatrixXd w = core::haar_frame(rng, A.d(), 1);
  Eigen::MatrixXd g(A.d(), params_.batch);  // column i: A_i w
  A.apply_range(0, params_.batch, w, g);
  const Eigen::VectorXd mean = g.rowwise().mean();
  const double range = (g.colwise() - mean).colwise().norm().maxCoeff();
  Estimate e;
  e.claim = claim(in);
  e.diagnostics.counters = {{"mean_gradient_norm", mean.norm()},
                            {"gradient_range", range},
                            {"range_over_mean", range / mean.norm()}};
  return e;
}

}  // namespace dpb::alg
