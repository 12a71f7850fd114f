#pragma once
// `dpbounds pca`: a differentially private PCA of a user's records, with every quantity the
// algorithm needs either public (given by the user) or estimated privately, and the privacy ledger of
// the whole release (side statistics and algorithm), whose accountant total is the headline.
#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"
#include "core/params.hpp"
#include "app/pca/expected_accuracy.hpp"
#include "app/pca/preprocessing.hpp"

namespace dpb::app {

struct PcaRequest {
  int k = 1;
  alg::Privacy privacy{1.0, 1e-6};  // the total budget
  std::string algorithm;            // empty: default_pca_algorithm(k)
  core::ParamMap params;            // the algorithm's parameters (defaults from its schema)
  PreprocessingRequest preprocessing;
  bool accept_model_dependent_privacy = false;
  std::uint64_t seed = 1;
  std::string source = "the data";          // what the privacy statement calls the records ("data.csv")
  std::vector<std::string> feature_names;  // empty: x1..xd
};

struct PcaResult {
  long n = 0, d = 0;
  std::string algorithm, source;
  std::vector<std::string> feature_names;
  core::ParamMap params;        // as resolved against the schema (defaults filled in)
  std::uint64_t seed = 0;
  bool centered = false, standardized = false;
  Eigen::VectorXd center, scale;  // private: what was subtracted from and divided into every column
  Eigen::VectorXd spreads;        // private second moment of each (centered) column
  double spreads_noise_sd = 0;
  Eigen::MatrixXd components;     // d x k, orthonormal columns
  Eigen::VectorXd explained;      // private variance along each component
  double total_variance = 0;      // private total variance (second moment when not centered)
  double clip_radius = 0;         // the radius records were clipped to after preprocessing
  bool radius_is_public = false;  // from the user's --norm-bound or --bounds
  std::optional<ExpectedAccuracy> accuracy;
  alg::PrivacyClaim claim;        // the algorithm's own claim
  alg::PrivacyClaim total;        // what the whole release satisfies: the accountant's total of `ledger`
  alg::Ledger ledger;             // every mechanism the release ran, side statistics included
  std::vector<std::string> warnings;  // about the request and the result, never a number read off the data
};

// baseline.dp_gauss_1 (Analyze-Gauss) for every k: worst-case DP, and the one quantity it needs, the
// clipping radius, is the private norm scale. (docs/pca.md says why not liu2022.dp_pca or ADADPO.)
std::string default_pca_algorithm(int k);

// X is d x n (records are columns). Throws dpb::InvalidArgument for invalid requests, for mutants and
// algorithms that are not private or (without the flag) private only under model assumptions, when
// there are too few records for the budget (the message gives the minimum), and when the ledger's total
// would exceed the budget asked for. Nothing it reports about the data is read off the data without
// noise: n is public under replace-one neighbours, everything else comes out of a mechanism.
PcaResult private_pca(const Eigen::MatrixXd& X, const PcaRequest& request);

}  // namespace dpb::app
