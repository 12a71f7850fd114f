#pragma once
// A dataset as a core::Model (docs/experiments.md "Datasets"): the experiment's `data:` section in
// place of `model:`. The records are the population, so the truth a metric compares against is their
// own sample covariance S = X X^T / N and its top-r eigenvectors (cai2024 §6.2 measures the private
// PCs against S). The oracle quantities the algorithms read are the paper's non-private plug-ins:
//   lambda  the mean of S's top r eigenvalues, no sigma^2 subtracted (spec: cai2024 A8, followed literally)
//   sigma2  the mean of S's eigenvalues first..last of `noise_eigenvalues` (cai2024 §6.2: 50th to 140th)
#include <Eigen/Dense>
#include <string>
#include <utility>

#include "core/models/model.hpp"
#include "verify/datasets/mnist.hpp"
#include "verify/experiment/spec.hpp"

namespace dpb::verify {

class DatasetModel : public core::Model {
 public:
  // Throws dpb::InvalidArgument when rank or the eigenvalue range does not fit the data's dimension.
  DatasetModel(LabelledData data, const DataSpec& spec);
  const core::ModelInfo& info() const override { return info_; }
  // All N records in file order when n = N; a uniformly random subset of n of them (in file order)
  // when n < N; n > N is a dpb::InvalidArgument.
  Eigen::MatrixXd sample(Eigen::Index n, core::Rng& rng) const override;
  const LabelledData& data() const { return data_; }

 private:
  LabelledData data_;
  core::ModelInfo info_;
};

// The records `spec` names (today: spec.name == "mnist"). A missing file is a dpb::InvalidArgument that
// says where to get the data and how to pass it (`data.path`, or `--data` of `dpbounds reproduce`).
LabelledData load_dataset(const DataSpec& spec);

// Why the files of `spec` cannot be read, or "" when they exist (checked without reading them).
std::string missing_data(const DataSpec& spec);

}  // namespace dpb::verify
