#pragma once
// Scores reduce one output of a mechanism (alg::Estimate) to one number the auditor thresholds
// (DESIGN.md §5 "Privacy audit"). Pluggable: a name -> function registry.
#include <Eigen/Dense>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/estimate.hpp"

namespace dpb::verify {

struct ScoreContext {
  Eigen::VectorXd direction;               // unit canary direction u
  std::optional<alg::Estimate> reference;  // a reference output (for `reference_distance`)
  Eigen::VectorXd record, record_prime;    // the replaced record in D and in D' (for `second_moment_lr`)
  Eigen::Index index = 0;                  // its column (for `transcript_lr`: the releases that read it)
  Eigen::VectorXd weights;                 // learned_linear: the discriminant the auditor fit on training runs
};

using ScoreFunction = std::function<double(const alg::Estimate&, const ScoreContext&)>;

struct ScoreEntry {
  std::string name;
  std::string doc;
  bool needs_reference = false;  // the auditor then runs the mechanism once more on D for the reference
  ScoreFunction score;           // throws dpb::InvalidArgument when the output lacks what it reads
  bool learned = false;          // the auditor first fits ScoreContext::weights on training runs (learned_score.hpp)
};

// Every score, in a fixed order.
const std::vector<ScoreEntry>& score_registry();
// Throws dpb::InvalidArgument listing the known names if `name` is unknown.
const ScoreEntry& find_score(const std::string& name);
// The score that reads Estimate::transcript: the auditor asks the algorithm to record one for it.
inline constexpr const char* kTranscriptScore = "transcript_lr";
// The score for what `estimate` holds: subspace_energy for Q, covariance_quadratic for Sigma,
// mean_projection for a mean, top_eigenvalue for eigenvalues alone, and scalar otherwise (a
// scalar, or no release at all: BOTTOM).
std::string default_score(const alg::Estimate& estimate);

}  // namespace dpb::verify
