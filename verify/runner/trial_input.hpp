#pragma once
// One trial's data in the form its algorithm takes (DESIGN.md §3): the vectors X for the covariance
// family, the sample matrices A_i for the Oja family. The runner and the auditor both build inputs here.
#include <Eigen/Dense>
#include <memory>
#include <optional>

#include "algorithms/registry.hpp"
#include "core/models/model.hpp"

namespace dpb::verify {

struct TrialData {
  std::optional<Eigen::MatrixXd> X;               // absent for models that give sample matrices only
  std::unique_ptr<core::SampleMatrices> samples;  // always present
};

// n samples of `model`, in the form `entry` needs: vectors when it needs them, or reads PSD samples and the
// model gives vectors; else the model's sample matrices, drawn `stream_batch` at a time while the algorithm
// reads them when that is > 0 (`model` must then outlive the data).
TrialData draw_trial_data(const core::Model& model, const alg::AlgorithmEntry& entry, Eigen::Index n, core::Rng& rng,
                          Eigen::Index stream_batch = 0);
// Data given as vectors (columns of X): A_i = x_i x_i^T for the Oja family.
TrialData trial_data_from_vectors(Eigen::MatrixXd X);

// The algorithm's input over `data`. Throws dpb::InvalidArgument when the algorithm needs vectors
// and the data has only sample matrices, or when k is outside 1..d.
alg::Input make_input(const alg::AlgorithmEntry& entry, const TrialData& data, int k, const alg::Privacy& privacy,
                      const core::ModelInfo* oracle);

}  // namespace dpb::verify
