#include "algorithms/pca/learning_rate_search.hpp"

#include <fmt/format.h>
#include <cmath>
#include <limits>
#include <set>

#include "algorithms/param_fields.hpp"
#include "core/errors.hpp"
#include "core/metrics.hpp"

namespace dpb::alg {
namespace {
const std::string kOwner = "liu2022.learning_rate_search";
}

LearningRateScorer oracle_nonprivate_scorer(const core::ModelInfo& oracle) {
  if (oracle.target.cols() < 1)
    throw InvalidArgument(fmt::format("{}: the oracle has no target eigenvector", kOwner));
  const Eigen::VectorXd v1 = oracle.target.col(0);
  return {"oracle_nonprivate_sin (NON-PRIVATE, simulation only)", false,
          [v1](const Eigen::VectorXd& w, const Budget&, Ledger&, core::Rng&) { return core::sin_angle(w, v1); }};
}

std::vector<std::pair<double, double>> learning_rate_round_pairs(int round) {
  if (round < 1) throw InvalidArgument(fmt::format("{}: rounds start at 1, got {}", kOwner, round));
  const double edge_hi = std::exp2(round - 1), edge_lo = std::exp2(-(round - 1));
  std::vector<double> grid;
  for (int e = -(round - 1); e <= round - 1; ++e) grid.push_back(std::exp2(e));
  std::vector<std::pair<double, double>> pairs;
  std::set<std::pair<double, double>> seen;
  const auto add = [&](double c1, double c2) {
    if (seen.insert({c1, c2}).second) pairs.push_back({c1, c2});
  };
  for (double edge : {edge_hi, edge_lo})
    for (double g : grid) add(edge, g);
  for (double g : grid)
    for (double edge : {edge_hi, edge_lo}) add(g, edge);
  return pairs;
}

Budget learning_rate_round_budget(const Privacy& total, int round, bool rescale) {
  const double share = 1.0 / (std::exp2(round + 1) * (2.0 * round - 1)) / (rescale ? 1.25 : 1.0);
  return {total.epsilon * share, total.delta * share};
}

LearningRateSearch::LearningRateSearch(LearningRateSearchParams params, LearningRateInstanceFactory instances,
                                       std::function<LearningRateScorer(const Input&)> scorer_factory)
    : params_(params), instances_(std::move(instances)), scorer_factory_(std::move(scorer_factory)) {
  if (!(params_.target_error >= 0 && params_.target_error <= 1))
    throw InvalidArgument(fmt::format("{}: target_error must lie in [0, 1]", kOwner));
  if (params_.max_rounds < 1) throw InvalidArgument(fmt::format("{}: max_rounds must be >= 1", kOwner));
  if (!(params_.score_fraction > 0 && params_.score_fraction < 1))
    throw InvalidArgument(fmt::format("{}: score_fraction must lie in (0, 1)", kOwner));
}

PrivacyClaim LearningRateSearch::claim(const Input& in) const {
  PrivacyClaim c;
  const LearningRateScorer scorer = scorer_factory_(in);
  if (!scorer.is_private) {
    c.epsilon = in.privacy.epsilon;  // nominal: the budget the instances were calibrated to
    c.delta = in.privacy.delta;
    c.scope = ClaimScope::not_private;
    c.conditions = {
        fmt::format("NOT PRIVATE: the scorer '{}' reads non-private information; simulation only "
                    "(spec: liu2022 ambiguity 29)",
                    scorer.name)};
    return c;
  }
  // The worst case runs every round: the planned budgets' sum, which the faithful budgets take past the
  // request (ambiguity 29).
  c.epsilon = in.privacy.epsilon;
  c.delta = in.privacy.delta;
  Budget planned;
  for (int round = 1; round <= params_.max_rounds; ++round) {
    const Budget per = learning_rate_round_budget(in.privacy, round, params_.rescale_budget);
    const auto pairs = static_cast<double>(learning_rate_round_pairs(round).size());
    planned.epsilon += pairs * per.epsilon;
    planned.delta += pairs * per.delta;
  }
  c.epsilon = std::max(c.epsilon, planned.epsilon);
  c.delta = std::max(c.delta, planned.delta);
  c.conditions = {
      "serial composition (Lemma B.3) over every instance and its score on the same data",
      params_.rescale_budget
          ? "per-instance budgets divided by 1.25 so their sum stays <= (eps, delta) (ambiguity 29)"
          : "faithful budgets eps/(2^{i+1}(2i-1)): their sum over distinct pairs exceeds the request "
            "(ambiguity 29); the claim is that sum",
      "the scorer must be (budget)-DP; each base instance carries its own conditions"};
  return c;
}

Estimate LearningRateSearch::run(const Input& in, core::Rng& rng) const {
  validate(in.privacy);
  const LearningRateScorer scorer = scorer_factory_(in);
  Estimate best;
  double best_score = std::numeric_limits<double>::infinity(), best_c1 = 0, best_c2 = 0;
  Ledger ledger;
  int round = 1, instances = 0;
  bool reached = false;
  for (; round <= params_.max_rounds && !reached; ++round) {
    const Budget per = learning_rate_round_budget(in.privacy, round, params_.rescale_budget);
    const double train_share = scorer.is_private ? 1 - params_.score_fraction : 1.0;
    for (const auto& [c1, c2] : learning_rate_round_pairs(round)) {
      Input sub = in;
      sub.privacy.epsilon = per.epsilon * train_share;
      sub.privacy.delta = per.delta * train_share;
      Estimate e = instances_(c1, c2)->run(sub, rng);
      ledger.append(e.ledger);
      const Budget score_budget{per.epsilon - sub.privacy.epsilon, per.delta - sub.privacy.delta};
      const double score = scorer.score(e.Q->col(0), score_budget, ledger, rng);
      ++instances;
      if (score < best_score) {
        best_score = score;
        best_c1 = c1;
        best_c2 = c2;
        best = std::move(e);
      }
      if (score <= params_.target_error) {
        reached = true;
        break;
      }
    }
  }
  best.claim = claim(in);
  best.ledger = std::move(ledger);
  auto& c = best.diagnostics.counters;
  c["rounds"] = round - 1;
  c["instances"] = instances;
  c["chosen_c1"] = best_c1;
  c["chosen_c2"] = best_c2;
  c["best_score"] = best_score;
  c["reached_target"] = reached ? 1 : 0;
  best.diagnostics.notes.push_back(fmt::format("scorer: {}", scorer.name));
  if (!scorer.is_private)
    best.diagnostics.notes.push_back("NON-PRIVATE oracle scorer: this output is not differentially private");
  return best;
}

namespace {

// The registered entry's parameters: the search's own and the liu2022 algorithm it tunes.
struct RegisteredSearch {
  LearningRateSearchParams search;
  std::string base = "dp_pca";
};

FieldTable<RegisteredSearch> search_fields() {
  using S = LearningRateSearchParams;
  FieldTable<S> own;
  own.real("target_error", &S::target_error, 0.0, 1.0, "stop at the first instance scoring <= this", "liu2022 §2.8")
      .integer("max_rounds", &S::max_rounds, 1.0, "largest round i", "liu2022 §8.1")
      .flag("rescale_budget", &S::rescale_budget, "divide eps_i, delta_i by 1.25 (total <= eps); false = the printed budgets",
            "liu2022 ambiguity 29")
      .real("score_fraction", &S::score_fraction, 0.01, 0.99, "share of an instance's budget a private scorer gets",
            "liu2022 ambiguity 29");
  FieldTable<RegisteredSearch> t;
  t.choice<std::string>("base", &RegisteredSearch::base,
                        {{"dp_pca", "dp_pca"}, {"private_oja", "private_oja"}, {"minibatch_private_oja", "minibatch_private_oja"}},
                        "the liu2022 algorithm whose (c1, c2) is searched (its other parameters at their defaults)",
                        "liu2022 §2.8")
      .fixed_choice("scorer", "oracle_nonprivate_sin",
                    "oracle_nonprivate_sin: sin(w, v1) from the oracle, NON-PRIVATE (simulation only); private "
                    "scorers plug in through the C++ API",
                    "liu2022 ambiguity 29")
      .nest(&RegisteredSearch::search, own);
  return t;
}

}  // namespace

void register_learning_rate_search(Registry& r) {
  r.add(with_parameters(
      {.id = kOwner,
       .summary = "Learning-rate search: over eta_t = c1/(c2 + t) on a growing log-grid (scorer: non-private oracle)",
       .source = "Liu, Kong, Jain, Oh 2022, DP-PCA, end of Section 5 (spec §2.8)",
       .needs = DataNeed::sample_matrices,
       .oracle_quantities = {"target eigenvector v1 (oracle scorer)", "whatever the base algorithm reads"},
       .privacy = "NOT private with the oracle scorer (simulation only); with a private scorer, (eps, delta)-DP by "
                  "serial composition with rescaled budgets"},
      search_fields(), [](const RegisteredSearch& q) -> std::unique_ptr<Estimator> {
        auto instances = [base = "liu2022." + q.base](double c1, double c2) {
          return algorithm_registry().make(base, {{"step", std::string("inverse_time")}, {"c1", c1}, {"c2", c2}});
        };
        auto scorer = [](const Input& in) {
          if (!in.oracle)
            throw InvalidArgument(fmt::format("{}: the oracle scorer needs a model oracle (simulation only)", kOwner));
          return oracle_nonprivate_scorer(*in.oracle);
        };
        return std::make_unique<LearningRateSearch>(q.search, instances, scorer);
      }));
}

}  // namespace dpb::alg
