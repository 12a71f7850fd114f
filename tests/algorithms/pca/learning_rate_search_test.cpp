#include "algorithms/pca/learning_rate_search.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/pca/oja.hpp"
#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "liu2022_fixtures.hpp"

using namespace dpb::alg;
using Catch::Matchers::Contains;

TEST_CASE("liu2022.learning_rate_search grid rounds and budgets follow spec §2.8", "[liu2022]") {
  CHECK(learning_rate_round_pairs(1) == std::vector<std::pair<double, double>>{{1, 1}});
  for (int i = 2; i <= 6; ++i) {
    const auto pairs = learning_rate_round_pairs(i);
    CHECK(pairs.size() == static_cast<std::size_t>(8 * (i - 1)));
    for (const auto& [c1, c2] : pairs)  // every new pair is on the boundary of G_i x G_i
      CHECK((std::abs(std::log2(c1)) == i - 1 || std::abs(std::log2(c2)) == i - 1));
  }
  CHECK_THROWS_AS(learning_rate_round_pairs(0), dpb::InvalidArgument);
  // Summed over distinct pairs the printed budgets reach 1.0035 eps (spec §2.8 [computed]); rescaled by
  // 1/1.25 they stay below eps.
  const Privacy total{1.0, 1e-5};
  double printed = 0, rescaled = 0;
  for (int i = 1; i <= 60; ++i) {
    const double pairs = static_cast<double>(learning_rate_round_pairs(std::min(i, 30)).size()) +
                         (i > 30 ? 8.0 * (i - 30) : 0);
    printed += pairs * learning_rate_round_budget(total, i, false).epsilon;
    rescaled += pairs * learning_rate_round_budget(total, i, true).epsilon;
  }
  CHECK(printed == Approx(1.0035).margin(5e-4));
  CHECK(rescaled < 1.0);
  CHECK(learning_rate_round_budget(total, 2, false).delta == Approx(1e-5 / 24));
}

TEST_CASE("liu2022.learning_rate_search stops at the first instance reaching the target", "[liu2022]") {
  // Base: non-private Oja (c1, c2 from the grid), so the test isolates the search logic. A private stub
  // scorer records the budgets it is given and reports sin(w, v1).
  const auto data = dpb::test::liu2022::spiked(5, 5000, 3);
  std::vector<Budget> seen;
  const Eigen::VectorXd v1 = data.info().target.col(0);
  auto scorer = [&](const Input&) {
    return LearningRateScorer{"stub", true, [&](const Eigen::VectorXd& w, const Budget& b, dpb::alg::Ledger&, dpb::core::Rng&) {
                                seen.push_back(b);
                                return dpb::core::sin_angle(w, v1);
                              }};
  };
  auto instances = [](double c1, double c2) {
    dpb::alg::OjaParams p;  // not dugler2026::OjaParams, which a unity batch may bring into scope
    p.c1 = c1;
    p.c2 = c2;
    return std::make_unique<Oja>(p);
  };
  LearningRateSearchParams params;
  params.target_error = 0.05;
  const LearningRateSearch search(params, instances, scorer);
  Input in = dpb::test::liu2022::input(*data.samples, 1.0, 1e-5);
  dpb::core::Rng rng(1, 1);
  const auto e = search.run(in, rng);
  REQUIRE(e.Q);
  CHECK(e.diagnostics.counters.at("reached_target") == 1);
  CHECK(e.diagnostics.counters.at("best_score") <= 0.05);
  CHECK(dpb::core::sin_angle(e.Q->col(0), v1) <= 0.05);
  CHECK(seen.size() == static_cast<std::size_t>(e.diagnostics.counters.at("instances")));
  // Round 1's score budget: half of eps/(4 * 1)/1.25.
  CHECK(seen[0].epsilon == Approx(0.5 * 1.0 / 4 / 1.25));
  CHECK(e.claim.scope == ClaimScope::worst_case);
  // An unreachable target runs every round: 1 + 8 + 16 instances for max_rounds = 3.
  params.target_error = 0;
  params.max_rounds = 3;
  seen.clear();
  const auto all = LearningRateSearch(params, instances, scorer).run(in, rng);
  CHECK(all.diagnostics.counters.at("instances") == 25);
  CHECK(all.diagnostics.counters.at("reached_target") == 0);
}

TEST_CASE("liu2022.learning_rate_search with the oracle scorer says it is not private", "[liu2022]") {
  const auto data = dpb::test::liu2022::spiked(5, 3000, 4);
  const auto scorer = oracle_nonprivate_scorer(data.info());
  CHECK(!scorer.is_private);
  CHECK_THAT(scorer.name, Contains("NON-PRIVATE"));
  const auto search = algorithm_registry().make("liu2022.learning_rate_search",
                                                {{"base", std::string("private_oja")}, {"max_rounds", 1.0}});
  Input in = dpb::test::liu2022::input(*data.samples, 1.0, 1e-5, &data.info());
  dpb::core::Rng rng(1, 1);
  const auto e = search->run(in, rng);
  CHECK(e.claim.scope == ClaimScope::not_private);
  CHECK_THAT(e.claim.conditions.at(0), Contains("NOT PRIVATE"));
  CHECK_THAT(e.diagnostics.notes.back(), Contains("NON-PRIVATE"));
  Input no_oracle = in;
  no_oracle.oracle = nullptr;
  CHECK_THROWS_WITH(search->run(no_oracle, rng), Contains("oracle"));
}
