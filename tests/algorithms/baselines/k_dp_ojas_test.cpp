#include "algorithms/baselines/k_dp_ojas.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "algorithms/mechanisms/accountant.hpp"
#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "core/models/model.hpp"

using namespace dpb::alg;
using Catch::Matchers::Contains;

TEST_CASE("baseline.k_dp_ojas: validation, defaults, orthonormal output, determinism", "[liu2022]") {
  dpb::core::Rng rng(1, 1);
  const auto model = dpb::core::make_model("spiked_gaussian", {{"d", 6.0}, {"r", 2.0}, {"lambda", 4.0}}, rng);
  const auto samples = model->sample_matrices(3000, rng);
  const auto alg = algorithm_registry().make("baseline.k_dp_ojas", {});
  Input in;
  in.samples = samples.get();
  in.k = 3;
  in.privacy = {0.8, 1e-5};
  CHECK_THROWS_WITH(alg->run(in, rng), Contains("lambda1"));  // clipping threshold needs lambda1, gamma
  in.oracle = &model->info();
  in.privacy.epsilon = 1.5;  // no_amplification (the default) is proven for eps < 1 only
  CHECK_THROWS_AS(alg->run(in, rng), dpb::InvalidArgument);
  in.privacy.epsilon = 0.8;
  dpb::core::Rng a(2, 2), b(2, 2);
  const auto e = alg->run(in, a);
  REQUIRE(e.Q);
  CHECK(e.Q->cols() == 3);
  CHECK((e.Q->transpose() * *e.Q - Eigen::MatrixXd::Identity(3, 3)).norm() < 1e-12);
  CHECK(*alg->run(in, b).Q == *e.Q);
  // eta_t = 1/(1 + t) per component (dugler2026 F.2), 1000 samples each.
  CHECK(e.diagnostics.counters.at("component 1: eta_first") == Approx(0.5));
  CHECK(e.diagnostics.counters.at("component 3: steps") == 1000);
  CHECK_THAT(e.claim.conditions.at(0), Contains("parallel composition"));
  // Each component's steps read only its block: parts of their own, composed in parallel, within the claim.
  std::set<std::int64_t> parts[3];
  for (const auto& entry : e.ledger.entries()) {
    REQUIRE(entry.step.rfind("component ", 0) == 0);
    const int j = entry.step[10] - '1';
    REQUIRE((j >= 0 && j < 3));
    REQUIRE(entry.part >= 0);
    parts[j].insert(entry.part);
  }
  for (int j = 0; j < 3; ++j) CHECK_FALSE(parts[j].empty());
  CHECK(*parts[0].rbegin() < *parts[1].begin());
  CHECK(*parts[1].rbegin() < *parts[2].begin());
  CHECK_NOTHROW(check_claim(e.ledger, e.claim, "baseline.k_dp_ojas"));
  CHECK_THROWS_WITH(algorithm_registry().make("baseline.k_dp_ojas", {{"c1", 0.0}}), Contains("must lie in"));
}
