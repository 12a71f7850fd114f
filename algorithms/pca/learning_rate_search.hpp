#pragma once
// liu2022 end of Section 5 (spec §2.8): the learning-rate search meta-algorithm. Instances with
// eta_t = c1/(c2 + t) are run on the boundary of a growing log-grid of (c1, c2); each is scored by a
// pluggable scorer; the search stops at the first instance whose score reaches the target error.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/mechanisms/composition.hpp"
#include "algorithms/pca/liu2022_common.hpp"

namespace dpb::alg {

// Scores a candidate w (an estimate of sin(w, v1); lower is better) using the budget it is handed; a
// private scorer records its mechanisms in the ledger it is handed.
struct LearningRateScorer {
  std::string name;
  bool is_private = true;  // false: the scorer reads non-private information; the search is then NOT DP
  std::function<double(const Eigen::VectorXd& w, const Budget& budget, Ledger& ledger, core::Rng& rng)> score;
};

// sin(w, v1) with v1 read from the oracle. NON-PRIVATE, for simulations testing the search logic only
// (spec: liu2022 ambiguity 29); its name and every output that uses it say so.
LearningRateScorer oracle_nonprivate_scorer(const core::ModelInfo& oracle);

struct LearningRateSearchParams {
  double target_error = 0.1;
  int max_rounds = 5;
  bool rescale_budget =
      true;  // eps_i, delta_i divided by 1.25 so the total stays <= (eps, delta) (ambiguity 29)
  double score_fraction = 0.5;  // share of each instance's budget a private scorer gets
};

// Round i's new (c1, c2) pairs: ({2^{i-1}, 2^{-i+1}} x G_i) U (G_i x {2^{i-1}, 2^{-i+1}}), G_i =
// {2^{-i+1}, ..., 2^{i-1}}, without duplicates, in a fixed order (1 pair at i = 1, 8(i - 1) after).
std::vector<std::pair<double, double>> learning_rate_round_pairs(int round);
// Per-instance budget of round i: eps/(2^{i+1}(2i - 1)) (and the same for delta), divided by 1.25 when
// rescaled (spec: liu2022 §2.8, ambiguity 29).
Budget learning_rate_round_budget(const Privacy& total, int round, bool rescale);

// Builds the base instance for one (c1, c2).
using LearningRateInstanceFactory = std::function<std::unique_ptr<Estimator>(double c1, double c2)>;

class LearningRateSearch final : public Estimator {
 public:
  // scorer_factory builds the scorer for an input (e.g. from its oracle).
  LearningRateSearch(LearningRateSearchParams params, LearningRateInstanceFactory instances,
                     std::function<LearningRateScorer(const Input&)> scorer_factory);
  Estimate run(const Input& in, core::Rng& rng) const override;
  PrivacyClaim claim(const Input& in) const override;

 private:
  LearningRateSearchParams params_;
  LearningRateInstanceFactory instances_;
  std::function<LearningRateScorer(const Input&)> scorer_factory_;
};

// Registers liu2022.learning_rate_search (called from register_liu2022).
void register_learning_rate_search(Registry& registry);

}  // namespace dpb::alg
