#include "app/pca/private_pca.hpp"

#include <cmath>
#include <fmt/format.h>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/preprocessing/private_statistics.hpp"
#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "verify/datasets/records.hpp"
#include "verify/runner/trial_input.hpp"

namespace dpb::app {
namespace {

void validate_request(const Eigen::MatrixXd& X, const PcaRequest& r) {
  alg::validate(r.privacy);
  if (!(r.privacy.delta > 0))
    throw InvalidArgument("dpbounds pca needs delta in (0, 1): the private norm scale and the default algorithms "
                          "are (eps, delta)-DP");
  if (r.k < 1 || r.k > X.rows())
    throw InvalidArgument(fmt::format("k = {} must lie in 1..d = {} (the number of columns of the data)", r.k, X.rows()));
  if (!r.feature_names.empty() && r.feature_names.size() != static_cast<std::size_t>(X.rows()))
    throw InvalidArgument(fmt::format("{} feature names for {} columns", r.feature_names.size(), X.rows()));
  validate(r.preprocessing);
}

// Warnings about the request alone: n, d and the budget are public.
std::vector<std::string> request_warnings(long n, const alg::Privacy& privacy) {
  std::vector<std::string> warnings;
  if (privacy.delta >= 1.0 / static_cast<double>(n))
    warnings.push_back(fmt::format(
        "delta = {:g} is not below 1/n = {:.3g}: with that delta a mechanism may publish a whole record and still "
        "meet the guarantee; choose delta well below 1/n (e.g. 1e-6 or less)",
        privacy.delta, 1.0 / static_cast<double>(n)));
  if (privacy.epsilon > 10)
    warnings.push_back(fmt::format("epsilon = {:g} is above 10: a factor e^{:g} bounds nothing a person would call "
                                   "private; common choices lie between 0.1 and 5",
                                   privacy.epsilon, privacy.epsilon));
  if (privacy.epsilon < 0.01)
    warnings.push_back(fmt::format("epsilon = {:g} is below 0.01: the noise will swamp all but enormous data sets; "
                                   "common choices lie between 0.1 and 5",
                                   privacy.epsilon));
  return warnings;
}

// Warnings read off released quantities only (post-processing).
void add_result_warnings(PcaResult& r) {
  if (!r.standardized) {
    // A column in other units shows in two ways: it takes pc1 for itself (a wide column), or the private
    // spreads, where they stand clear of their noise, differ by more than this factor in standard deviation.
    constexpr double kScaleRatio = 100;
    constexpr double kSingleColumnLoading = 0.99;  // pc1 is 98% one column
    long largest = -1, smallest = -1;
    for (long j = 0; j < r.d; ++j) {
      if (!(r.spreads(j) > 3 * r.spreads_noise_sd)) continue;
      if (largest < 0 || r.spreads(j) > r.spreads(largest)) largest = j;
      if (smallest < 0 || r.spreads(j) < r.spreads(smallest)) smallest = j;
    }
    long top = 0;
    const double top_loading = r.components.col(0).cwiseAbs().maxCoeff(&top);
    if (largest >= 0 && std::sqrt(r.spreads(largest) / r.spreads(smallest)) > kScaleRatio)
      r.warnings.push_back(fmt::format(
          "the columns' spreads differ by a factor of about {:.3g} ('{}' against '{}'): the components will follow "
          "the widest columns, whatever their units; --standardize puts every column on one scale",
          std::sqrt(r.spreads(largest) / r.spreads(smallest)), r.feature_names[largest], r.feature_names[smallest]));
    else if (r.d > 1 && top_loading > kSingleColumnLoading)
      r.warnings.push_back(fmt::format(
          "pc1 is almost only the column '{}' (loading {:.3f}): if it is in other units than the rest, it wins by its "
          "scale alone; --standardize puts every column on one scale",
          r.feature_names[top], r.components(top, 0)));
  }
  if (r.accuracy && !(r.accuracy->rate < 1))
    r.warnings.push_back(fmt::format(
        "too few records for a useful result at this budget: {} (the theorem's rate is {:.3g} at n = {}, a sine of "
        "1 means a random direction); more records or a larger epsilon would help",
        r.accuracy->theorem, r.accuracy->rate, r.n));
}

// A mutant is refused before anything reads the data.
void require_not_mutant(const alg::AlgorithmEntry& entry) {
  if (entry.mutant)
    throw InvalidArgument(fmt::format("{} is a deliberately broken mutant of {} (for testing the auditor); dpbounds "
                                      "pca runs private algorithms only",
                                      entry.id, entry.breaks));
}

// The algorithm's claim decides whether it may run on user data at all.
void require_usable_claim(const alg::AlgorithmEntry& entry, const alg::PrivacyClaim& claim,
                          bool accept_model_dependent) {
  const std::string& id = entry.id;
  if (claim.scope == alg::ClaimScope::not_private)
    throw InvalidArgument(fmt::format("{} is not differentially private; dpbounds pca runs private algorithms only", id));
  if (claim.scope == alg::ClaimScope::under_model_assumptions && !accept_model_dependent)
    throw InvalidArgument(fmt::format(
        "{} is private only under its model's assumptions (with high probability over data drawn from the model), "
        "not for arbitrary data; pass --accept-model-dependent-privacy to run it anyway",
        id));
}


}  // namespace

std::string default_pca_algorithm(int) { return "baseline.dp_gauss_1"; }

PcaResult private_pca(const Eigen::MatrixXd& X, const PcaRequest& request) {
  validate_request(X, request);
  PcaResult result;
  result.n = X.cols();
  result.d = X.rows();
  result.seed = request.seed;
  result.source = request.source;
  result.feature_names =
      request.feature_names.empty() ? verify::default_feature_names(static_cast<std::size_t>(X.rows())) : request.feature_names;
  result.centered = request.preprocessing.center;
  result.standardized = request.preprocessing.standardize;
  result.algorithm = request.algorithm.empty() ? default_pca_algorithm(request.k) : request.algorithm;
  result.warnings = request_warnings(result.n, request.privacy);
  const auto& registry = alg::algorithm_registry();
  const auto& entry = registry.find(result.algorithm);
  require_not_mutant(entry);

  // 1. Clamping, centering and scaling, each private step paid from its share (app/pca/preprocessing).
  const Preprocessed prepared = preprocess(X, request.preprocessing, request.privacy, request.seed, result.ledger);
  result.center = prepared.center;
  result.scale = prepared.scale;
  result.spreads = prepared.spreads;
  result.spreads_noise_sd = prepared.spreads_noise_sd;
  result.clip_radius = prepared.radius;
  result.radius_is_public = prepared.radius_is_public;

  // 2. The PCA algorithm, with the rest of the budget and no oracle: on user data nothing is known.
  const double rest = 1 - side_share(request.preprocessing);
  const alg::Privacy algorithm_privacy{request.privacy.epsilon * rest, request.privacy.delta * rest,
                                       alg::Neighbours::replace};
  result.params = registry.resolve(result.algorithm, request.params);
  const auto estimator = registry.make(result.algorithm, request.params);
  const verify::TrialData trial = verify::trial_data_from_vectors(Eigen::MatrixXd(prepared.data));
  alg::Input in = verify::make_input(entry, trial, request.k, algorithm_privacy, nullptr);
  in.clip_radius = prepared.radius;  // what an algorithm would otherwise derive from a model (Analyze-Gauss's beta)
  require_usable_claim(entry, estimator->claim(in), request.accept_model_dependent_privacy);
  auto algorithm_rng = pca_step_rng(request.seed, result.algorithm);
  const alg::Estimate estimate = estimator->run(in, algorithm_rng);
  result.claim = estimate.claim;
  // Its notes are read off the data without noise: none of them is shown.
  if (!estimate.Q)
    throw InvalidArgument(fmt::format("{} returned no components; more records or a larger budget may help",
                                      result.algorithm));
  result.components = *estimate.Q;
  result.ledger.append(estimate.ledger);
  // What the release says about the run (post-processing of its noisy outputs): e.g. every step skipped.
  for (const auto& note : estimate.release_notes) result.warnings.push_back(result.algorithm + ": " + note);

  // 3. Explained variance of the released components.
  auto variance_rng = pca_step_rng(request.seed, "explained_variance");
  const auto variance = alg::private_explained_variance(
      *trial.X, result.components, prepared.radius,
      {request.privacy.epsilon * request.preprocessing.shares.explained_variance,
       request.privacy.delta * request.preprocessing.shares.explained_variance},
      result.ledger, variance_rng);
  result.explained = variance.per_component;
  result.total_variance = variance.total;

  // The headline: what the accountant proves for everything released (each step adaptive on the earlier).
  const alg::Spend spend = alg::account(result.ledger, request.privacy.delta, alg::Neighbours::replace);
  if (!(spend.epsilon <= request.privacy.epsilon * (1 + 1e-9)))
    throw InvalidArgument(fmt::format(
        "{} with these parameters would spend eps = {:.4g} by its privacy ledger, more than the eps = {:g} asked "
        "for; nothing was written (choose its default calibration, or a larger budget)",
        result.algorithm, spend.epsilon, request.privacy.epsilon));
  result.total = result.claim;
  result.total.epsilon = spend.epsilon;
  result.total.delta = request.privacy.delta;
  result.total.conditions.insert(result.total.conditions.begin(),
                                 fmt::format("the ledger's total by {}", spend.rule));
  result.accuracy = expected_accuracy(result.algorithm, result.n, result.d, algorithm_privacy, result.explained,
                                      result.total_variance);
  add_result_warnings(result);
  return result;
}

}  // namespace dpb::app
