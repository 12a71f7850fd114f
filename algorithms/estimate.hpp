#pragma once
// What every estimator returns (DESIGN.md §3 "Estimates").
#include <Eigen/Dense>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/mechanisms/ledger.hpp"
#include "algorithms/privacy.hpp"

namespace dpb::alg {

// Counters and notes an estimator reports about its run: clipping events, empty or BOTTOM
// histograms, the fallback taken. They are read off the data without noise, so they are for studying an
// algorithm on simulated data and are NOT covered by its claim: nothing that serves real data (`dpbounds
// pca`) may print them.
struct Diagnostics {
  std::map<std::string, double> counters;  // e.g. {"clipped", 12}, {"empty_histograms", 0}
  std::vector<std::string> notes;          // e.g. "histogram empty at step 3: fallback lambda_min"

  void count(const std::string& name, double by = 1) { counters[name] += by; }
};

// One Gaussian sub-release of a composed mechanism: value = scale sum_{i in records} clip(A_i query) + G,
// G iid N(0, noise_sd^2), where A_i = x_i x_i^T (or the model's matrix) of the records it reads, clip the
// Frobenius clip of each term at `clip` (infinite: none, or records clipped before), and query a public
// matrix chosen from the earlier releases. A claim proved by composition covers all of them together, so
// exposing them is post-processing of what the claim already bounds; the auditor reads them (score
// `transcript_lr`) to see a loss that only the releases together reach (a budget not split between them),
// or one step's loss alone (an Oja step reads one record or one batch: white-box, docs/auditing.md).
struct GaussianRelease {
  std::string step;
  Eigen::MatrixXd query;
  Eigen::MatrixXd value;
  double noise_sd = 0;
  double scale = 1;
  double clip = std::numeric_limits<double>::infinity();
  // The records [first_record, end_record) it reads, by their column in the input; end_record < 0: all of
  // them. A release whose claim rests on hiding which records a step read (amplification by shuffling)
  // says `all`.
  Eigen::Index first_record = 0, end_record = -1;
  // The noise's part in the query's span, Q^T G (Q orthonormal), is a symmetric matrix with density
  // exp(-||Q^T G||_F^2 / (2 span_variance noise_sd^2)): 2 for dugler2026's noise on S_Q (GOE); 1: the noise is
  // iid N(0, noise_sd^2) in every entry.
  double span_variance = 1;
  bool reads(Eigen::Index record) const {
    return end_record < 0 || (record >= first_record && record < end_record);
  }
};

struct Estimate {
  std::optional<Eigen::MatrixXd> Q;            // d x k, orthonormal columns
  std::optional<Eigen::MatrixXd> Sigma;        // d x d covariance estimate
  std::optional<Eigen::VectorXd> eigenvalues;  // estimated eigenvalues, descending
  std::optional<Eigen::VectorXd> mean;         // a private mean (liu2022 Alg. 5, dugler2026 Alg. 5)
  std::optional<double> scalar;                // a scalar release (a range, a variance, a rank)
  // The population quantity `scalar` estimates, by its core::ModelInfo::params name ("r", "lambda",
  // "lambda1", "sigma2"), so a run can measure its error; empty when it is none a model publishes.
  std::string scalar_estimand;
  std::vector<GaussianRelease> transcript;     // the sub-releases, where a composed mechanism exposes them
  Diagnostics diagnostics;
  // What the release itself says about the run, read off the noisy outputs only (post-processing, covered by
  // the claim), unlike `diagnostics`: e.g. that every step was skipped because a private histogram released
  // nothing, so the output is the random start. `dpbounds pca` shows them to the user.
  std::vector<std::string> release_notes;
  Ledger ledger;       // every mechanism the run used (algorithms/mechanisms/ledger.hpp)
  PrivacyClaim claim;  // the claim the estimator ran under; the registry checks the ledger against it
};

}  // namespace dpb::alg
