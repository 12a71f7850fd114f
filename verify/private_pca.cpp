#include "verify/private_pca.hpp"

#include <cmath>
#include <fmt/format.h>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/pca/private_top_eigenvalue.hpp"
#include "algorithms/preprocessing/private_statistics.hpp"
#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "verify/trial_input.hpp"

namespace dpb::verify {
namespace {

constexpr std::string_view kStreams = "dpbounds.pca";  // stream ids: one per step, keyed by the seed

core::Rng step_rng(std::uint64_t seed, std::string_view step) {
  return core::Rng(seed, core::stream_id(kStreams, 0, step, 0, "noise"));
}

alg::Budget share_of(const alg::Privacy& total, double share) {
  return {total.epsilon * share, total.delta * share};
}

void validate_request(const Eigen::MatrixXd& X, const PcaRequest& r) {
  alg::validate(r.privacy);
  if (!(r.privacy.delta > 0))
    throw InvalidArgument("dpbounds pca needs delta in (0, 1): the private norm scale and the default algorithms "
                          "are (eps, delta)-DP");
  if (r.k < 1 || r.k > X.rows())
    throw InvalidArgument(fmt::format("k = {} must lie in 1..d = {} (the number of columns of the data)", r.k, X.rows()));
  const auto& s = r.shares;
  const double side = s.norm_scale + s.explained_variance + (r.center ? s.centering : 0.0);
  if (!(s.norm_scale > 0 && s.explained_variance > 0 && s.centering > 0 && side < 1))
    throw InvalidArgument(fmt::format("budget shares must be > 0 and leave a positive share for the algorithm; got "
                                      "norm scale {}, centering {}, explained variance {}",
                                      s.norm_scale, s.centering, s.explained_variance));
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

nlohmann::json param_json(const core::ParamValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

}  // namespace

std::string default_pca_algorithm(int) { return "baseline.dp_gauss_1"; }

core::ParamMap user_data_parameters(const std::string& id, core::ParamMap given, double radius, long n,
                                    const alg::Privacy& privacy) {
  // Analyze-Gauss clips ||x_i|| to beta; its own default derives beta from the model.
  if (id == "baseline.dp_gauss_1" && given.get_real("beta", 0, id) == 0) given.set("beta", radius);
  // DP-PCA's T = ceil((log n)^2) leaves minibatches too small for Algorithm 4 unless n is huge (about
  // 1e6 at eps = 1): take the largest T whose minibatches are feasible instead.
  if (id == "liu2022.dp_pca" && given.get_int("T", 0, id) == 0 && given.get_int("B", 0, id) == 0) {
    const auto resolved = alg::algorithm_registry().resolve(id, given);
    const double zeta = resolved.get_real("zeta", 0, id), C1 = resolved.get_real("C1", 0, id);
    long T = static_cast<long>(std::ceil(std::pow(std::log(static_cast<double>(n)), 2)));
    for (; T > 1; --T) {
      const auto subsets = alg::top_eigenvalue_subsets(privacy.epsilon / 2, privacy.delta / 2, zeta / (2.0 * T), C1);
      if ((n / T) / 2 >= 2 * subsets) break;
    }
    given.set("T", static_cast<double>(T));
  }
  return given;
}

PcaResult private_pca(const Eigen::MatrixXd& X, const PcaRequest& request) {
  validate_request(X, request);
  PcaResult result;
  result.n = X.cols();
  result.d = X.rows();
  result.seed = request.seed;
  result.centered = request.center;
  result.algorithm = request.algorithm.empty() ? default_pca_algorithm(request.k) : request.algorithm;
  const auto& registry = alg::algorithm_registry();
  const auto& entry = registry.find(result.algorithm);
  require_not_mutant(entry);
  const auto& shares = request.shares;

  // 1. A private norm scale: the clipping radius of the side statistics.
  const alg::Budget scale_budget = share_of(request.privacy, shares.norm_scale);
  auto scale_rng = step_rng(request.seed, "norm_scale");
  const auto scale = alg::private_norm_scale(X, scale_budget, result.ledger, scale_rng);
  if (!scale.radius)
    throw InvalidArgument(fmt::format(
        "too few records for a private norm scale at this budget: n = {}, while the stability histogram needs at "
        "least {} records in one norm octave-quarter (eps = {:.3g}, delta = {:.3g} for this step); give more records "
        "or a larger budget",
        result.n, alg::min_records_for_norm_scale(scale_budget), scale_budget.epsilon, scale_budget.delta));
  result.clip_radius = *scale.radius;

  // 2. Centering, paid for from the budget: a clipped mean with Gaussian noise.
  Eigen::MatrixXd data = X;
  double side_radius = result.clip_radius;
  if (request.center) {
    const alg::Budget center_budget = share_of(request.privacy, shares.centering);
    auto center_rng = step_rng(request.seed, "centering");
    const auto mean = alg::private_clipped_mean(X, result.clip_radius, center_budget, result.ledger, center_rng);
    data.colwise() -= mean.mean;
    side_radius = 2 * result.clip_radius;  // ||x - mu|| <= ||x|| + ||mu||, both within the scale
  }

  // 3. The PCA algorithm, with the rest of the budget and no oracle: on user data nothing is known.
  const double side_share = shares.norm_scale + shares.explained_variance + (request.center ? shares.centering : 0.0);
  const alg::Privacy algorithm_privacy{request.privacy.epsilon * (1 - side_share),
                                       request.privacy.delta * (1 - side_share), alg::Neighbours::replace};
  const core::ParamMap params =
      user_data_parameters(result.algorithm, request.params, side_radius, result.n, algorithm_privacy);
  result.params = registry.resolve(result.algorithm, params);
  const auto estimator = registry.make(result.algorithm, params);
  const TrialData trial = trial_data_from_vectors(std::move(data));
  const alg::Input in = make_input(entry, trial, request.k, algorithm_privacy, nullptr);
  require_usable_claim(entry, estimator->claim(in), request.accept_model_dependent_privacy);
  auto algorithm_rng = step_rng(request.seed, result.algorithm);
  const alg::Estimate estimate = estimator->run(in, algorithm_rng);
  result.claim = estimate.claim;
  // Its notes are read off the data without noise: none of them is shown.
  if (!estimate.Q)
    throw InvalidArgument(fmt::format("{} returned no components; more records or a larger budget may help",
                                      result.algorithm));
  result.components = *estimate.Q;
  result.ledger.append(estimate.ledger);

  // 4. Explained variance of the released components.
  const alg::Budget variance_budget = share_of(request.privacy, shares.explained_variance);
  auto variance_rng = step_rng(request.seed, "explained_variance");
  const auto variance = alg::private_explained_variance(*trial.X, result.components, side_radius, variance_budget,
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
  return result;
}

nlohmann::json to_json(const PcaResult& r) {
  nlohmann::json ledger = nlohmann::json::array();
  for (const auto& e : r.ledger.entries()) {
    const alg::EntryCost cost = alg::entry_cost(e, alg::Neighbours::replace);
    ledger.push_back({{"step", e.step},
                      {"mechanism", alg::to_string(e.mechanism)},
                      {"sensitivity", e.sensitivity},
                      {"norm", alg::to_string(e.norm)},
                      {"noise_scale", e.noise_scale},
                      {"uses", e.uses},
                      {"calibrated_for", {{"epsilon", e.calibrated_for.epsilon}, {"delta", e.calibrated_for.delta}}},
                      {"cost_per_use", {{"epsilon", cost.epsilon}, {"delta", cost.delta}, {"theorem", cost.theorem}}}});
  }
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : r.params.values()) params[name] = param_json(value);
  nlohmann::json components = nlohmann::json::array();
  for (Eigen::Index j = 0; j < r.components.cols(); ++j)
    components.push_back(std::vector<double>(r.components.col(j).data(), r.components.col(j).data() + r.d));
  const Eigen::VectorXd fractions = r.total_variance > 0 ? Eigen::VectorXd(r.explained / r.total_variance) : r.explained;
  return {
      {"n", r.n},
      {"d", r.d},
      {"k", r.components.cols()},
      {"algorithm", r.algorithm},
      {"parameters", params},
      {"seed", r.seed},
      {"centered", r.centered},
      {"components", components},
      {"explained_variance", std::vector<double>(r.explained.data(), r.explained.data() + r.explained.size())},
      {"explained_variance_ratio", std::vector<double>(fractions.data(), fractions.data() + fractions.size())},
      {"total_variance", r.total_variance},
      {"privacy",
       {{"epsilon", r.total.epsilon},
        {"delta", r.total.delta},
        {"neighbours", alg::to_string(r.total.neighbours)},
        {"scope", alg::to_string(r.total.scope)},
        {"statement", alg::describe(r.total)},
        {"algorithm_claim", alg::describe(r.claim)},
        {"ledger", ledger}}},
      {"notes", r.notes},
  };
}

std::string to_text(const PcaResult& r) {
  std::string out = fmt::format("Private PCA of {} records in {} dimensions with {} (seed {}){}\n", r.n, r.d,
                                r.algorithm, r.seed, r.centered ? ", centered privately" : "");
  out += fmt::format("Privacy: {}\n", alg::describe(r.total));
  if (r.total.scope == alg::ClaimScope::under_model_assumptions)
    out += "WARNING: this guarantee holds only for data drawn from the algorithm's model, not for arbitrary data.\n";
  out += "Privacy ledger (every mechanism run, composed by the accountant):\n";
  for (const auto& line : alg::describe_ledger(r.ledger, r.total)) out += fmt::format("  {}\n", line);
  out += fmt::format("Explained {} (private, records clipped to radius {:.4g}):\n",
                     r.centered ? "variance" : "second moment", r.centered ? 2 * r.clip_radius : r.clip_radius);
  for (Eigen::Index j = 0; j < r.explained.size(); ++j)
    out += fmt::format("  pc{:<3} {:.4g} ({:.1f}% of {:.4g})\n", j + 1, r.explained(j),
                       r.total_variance > 0 ? 100 * r.explained(j) / r.total_variance : 0.0, r.total_variance);
  for (const auto& note : r.notes) out += "Note: " + note + "\n";
  return out;
}

std::string components_csv(const PcaResult& r) {
  std::string out;
  for (Eigen::Index j = 0; j < r.components.cols(); ++j) out += fmt::format("{}pc{}", j ? "," : "", j + 1);
  out += "\n";
  for (Eigen::Index i = 0; i < r.components.rows(); ++i) {
    for (Eigen::Index j = 0; j < r.components.cols(); ++j) out += fmt::format("{}{:.17g}", j ? "," : "", r.components(i, j));
    out += "\n";
  }
  return out;
}

}  // namespace dpb::verify
