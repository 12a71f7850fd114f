#include "verify/runner/trial_input.hpp"

#include <fmt/core.h>

#include "core/errors.hpp"
#include "core/streamed_samples.hpp"

namespace dpb::verify {

TrialData draw_trial_data(const core::Model& model, const alg::AlgorithmEntry& entry, Eigen::Index n, core::Rng& rng,
                          Eigen::Index stream_batch) {
  if (stream_batch > 0) {
    if (entry.needs != alg::DataNeed::sample_matrices)
      throw InvalidArgument(fmt::format("{} reads the whole data set; it cannot run on streamed samples", entry.id));
    return TrialData{std::nullopt, std::make_unique<core::StreamedSamples>(model, n, stream_batch, rng)};
  }
  const bool vectors = entry.needs == alg::DataNeed::vectors ||
                       (entry.needs == alg::DataNeed::psd_samples && model.gives_vectors());
  if (vectors) return trial_data_from_vectors(model.sample(n, rng));
  return TrialData{std::nullopt, model.sample_matrices(n, rng)};
}

TrialData trial_data_from_vectors(Eigen::MatrixXd X) {
  TrialData data;
  data.X = std::move(X);
  // A copy: the covariance family reads X, the Oja family A_i = x_i x_i^T; both views must exist.
  data.samples = std::make_unique<core::VectorSamples>(*data.X);
  return data;
}

alg::Input make_input(const alg::AlgorithmEntry& entry, const TrialData& data, int k, const alg::Privacy& privacy,
                      const core::ModelInfo* oracle) {
  if (entry.needs == alg::DataNeed::vectors && !data.X)
    throw InvalidArgument(fmt::format("{} needs data vectors, but the model gives only sample matrices A_i; "
                                      "use a vector model (e.g. spiked_gaussian)",
                                      entry.id));
  const auto d = data.samples->d();
  if (k < 1 || k > d) throw InvalidArgument(fmt::format("k = {} must lie in 1..d = {}", k, d));
  alg::Input in;
  in.samples = data.samples.get();
  in.X = data.X ? &*data.X : nullptr;
  in.k = k;
  in.privacy = privacy;
  in.oracle = oracle;
  return in;
}

}  // namespace dpb::verify
