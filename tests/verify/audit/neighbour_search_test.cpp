// Issue 18: "a search over inputs near decision boundaries, as StatDP and Delta-Siege do". `neighbours: search`
// tries every construction at four canary scales on model and flat data, scores each candidate's pilot runs with
// every score, and audits the best on fresh streams: it finds the neighbours and score nobody wrote down.
#include "verify/audit/neighbour_search.hpp"

#include <catch2/catch.hpp>
#include <algorithm>
#include <optional>

#include "algorithms/mechanisms/gaussian.hpp"
#include "algorithms/registry.hpp"
#include "core/errors.hpp"
#include "tests/verify/audit/audit_fixtures.hpp"
#include "verify/audit/auditor.hpp"
#include "tests/verify/audit/noise_scaled.hpp"
#include "verify/audit/estimators.hpp"
#include "verify/experiment/parse.hpp"
#include "verify/experiment/repository_configs.hpp"

namespace alg = dpb::alg;
using namespace dpb::verify;

namespace {

// The audit of the acceptance test's DP-Gauss-1 rows: the white-box setting with every eigenpair (k = d = 3).
AuditSpec gauss_spec(const std::string& id, NeighbourKind neighbours) {
  AuditSpec spec = dpb::test::white_box_spec(id);
  spec.k = 3;
  spec.neighbours = neighbours;
  return spec;
}

// A user's own algorithm: DP-Gauss-1 with its noise x`factor` behind an honest ledger (a slip no ledger shows), under an id the worst-case table does not know (so
// the auditor builds the generic huge-norm canary for it).
alg::Registry as_user_algorithm(double factor) {
  alg::Registry registry;
  registry.add(dpb::test::noise_scaled(alg::algorithm_registry().find("baseline.dp_gauss_1"), "user.analyze_gauss",
                                       factor, alg::NoiseDefect::hidden));
  return registry;
}

class Refuses final : public alg::Estimator {
 public:
  alg::Estimate run(const alg::Input&, dpb::core::Rng&) const override {
    throw dpb::InvalidArgument("test double: refuses every input");
  }
  alg::PrivacyClaim claim(const alg::Input& in) const override {
    return {in.privacy.epsilon, in.privacy.delta, in.privacy.neighbours, alg::ClaimScope::worst_case, {}};
  }
};

}  // namespace

TEST_CASE("the search tries the worst case first, then every admissible construction at every scale", "[audit]") {
  AuditSpec spec = gauss_spec("baseline.dp_gauss_1", NeighbourKind::search);
  const auto with_k3 = search_candidates(spec, "baseline.dp_gauss_1", 3);
  REQUIRE_FALSE(with_k3.empty());
  CHECK(with_k3.front().construction.kind == NeighbourKind::orthogonal_axes);
  CHECK(with_k3.front().construction.flat);
  CHECK(with_k3.front().canary_scale == spec.canary_scale);
  CHECK_FALSE(with_k3.front().construction.reason.empty());  // the worst case says why
  // k = d: no opposed_at_start (e_b would lie in the start frame); log_ladder only on model data (it replaces
  // every record). 5 kinds x 4 scales x 2 data + 4 ladders, the worst case's own slot taken by the worst case.
  CHECK(with_k3.size() == 5 * 4 * 2 + 4);
  for (std::size_t i = 1; i < with_k3.size(); ++i) {
    CHECK(with_k3[i].construction.reason.empty());
    CHECK(with_k3[i].construction.kind != NeighbourKind::opposed_at_start);
    CHECK_FALSE((with_k3[i].construction.kind == NeighbourKind::log_ladder && with_k3[i].construction.flat));
  }
  const auto count = [&](const std::vector<SearchCandidate>& list, double scale) {
    return std::count_if(list.begin(), list.end(), [&](const SearchCandidate& c) { return c.canary_scale == scale; });
  };
  CHECK(count(with_k3, 10.0) == 11);  // 5 kinds x 2 data + a ladder
  CHECK(count(with_k3, 10.0 * 0.001) == 11);
  // k < d admits opposed_at_start; n > 64 rules out the ladder.
  spec.n = 200;
  CHECK(search_candidates(spec, "baseline.dp_gauss_1", 1).size() == 6 * 4 * 2);
  // The Oja family's worst case (opposed_at_start) falls back to orthogonal axes where k = d.
  spec.k = 3;
  CHECK(search_candidates(spec, "liu2022.private_oja", 3).front().construction.kind == NeighbourKind::orthogonal_axes);
  CHECK(search_candidates(spec, "liu2022.private_oja", 1).front().construction.kind ==
        NeighbourKind::opposed_at_start);
}

TEST_CASE("a user's Analyze Gauss with noise x0.7: the search flags it where the generic canary sees nothing",
          "[audit][statistical]") {
  // Nobody wrote its worst case down: the default audit plants a huge-norm canary and scores the subspace the output
  // holds, 0 of the claim. The search finds orthogonal axes on flat data and the likelihood-ratio score, the pair
  // and score that attain its sensitivity: noise x0.7 shows mu 1/0.7 times the claim's, eps_lb about 1.5 of 1.
  const alg::Registry user = as_user_algorithm(0.7);
  const AuditResult plain = run_audit(gauss_spec("user.analyze_gauss", NeighbourKind::canary), user);
  CHECK(plain.construction == NeighbourKind::huge_norm);
  CHECK(plain.verdict == AuditVerdict::pass);
  CHECK(plain.epsilon_lower() < 0.5);

  const AuditResult searched = run_audit(gauss_spec("user.analyze_gauss", NeighbourKind::search), user);
  CHECK(searched.construction == NeighbourKind::orthogonal_axes);
  CHECK(searched.score == "second_moment_lr");
  CHECK(searched.search_candidates == 5 * 4 * 2 + 4);  // no worst case of its own: the generic huge_norm first
  CHECK(searched.search.front().pilot_epsilon >= searched.search.back().pilot_epsilon);
  CHECK(searched.verdict == AuditVerdict::violation);
  CHECK(searched.epsilon_lower() > 1.2);  // x0.7 shows about 1.5; 1.2 leaves room for the seed
}

TEST_CASE("the search does not flag the correct algorithm on seeds 1-5", "[audit][statistical]") {
  // Choosing among ~200 pilots spends none of the audit's confidence: the pilots' streams are never reused.
  const alg::Registry user = as_user_algorithm(1.0);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    AuditSpec spec = gauss_spec("user.analyze_gauss", NeighbourKind::search);
    spec.seed = seed;
    const AuditResult r = run_audit(spec, user);
    CAPTURE(seed, r.epsilon_lower());
    CHECK(r.verdict == AuditVerdict::pass);
    CHECK(r.epsilon_lower() > 0.5);  // and it is near-tight: 0.8-0.9 of 1
  }
}

TEST_CASE("the audit after a search runs on the audit's own streams: the pilots change none of its numbers",
          "[audit]") {
  // Auditing the chosen pair directly (the same construction named, at the same canary scale) with the chosen score
  // gives the same scores, so the same bound to the last bit.
  AuditSpec spec = gauss_spec("baseline.dp_gauss_1", NeighbourKind::search);
  spec.trials = 2000;
  const AuditResult searched = run_audit(spec);
  std::optional<AuditResult> direct;
  for (const NeighbourKind kind : {NeighbourKind::canary, NeighbourKind::huge_norm, NeighbourKind::sign_flip,
                                   NeighbourKind::axis_flip, NeighbourKind::corner, NeighbourKind::orthogonal_axes})
    for (const double multiple : kSearchScales) {
      AuditSpec named = spec;
      named.neighbours = kind;
      named.canary_scale = spec.canary_scale * multiple;
      named.score = searched.score;
      named.trials = kMinScoresPerDataset;  // only to read the description
      try {
        if (run_audit(named).neighbours != searched.neighbours) continue;
      } catch (const dpb::InvalidArgument&) {  // a score this pair cannot use (sign_flip: the same x x^T)
        continue;
      }
      named.trials = spec.trials;
      direct = run_audit(named);
    }
  REQUIRE(direct);  // at seed 1 the search chooses a pair a kind names (not flat data off the worst case)
  CHECK(direct->loss.epsilon_lower == searched.loss.epsilon_lower);
  CHECK(direct->loss.gdp_mu_lower == searched.loss.gdp_mu_lower);
  CHECK(searched.runs == direct->runs + searched.search_runs);
}

TEST_CASE("a search the algorithm refuses everywhere is one clear error", "[audit]") {
  alg::Registry registry;
  alg::AlgorithmEntry entry = alg::algorithm_registry().find("baseline.gaussian_mean");
  entry.id = "test.refuses";
  entry.factory = [](const dpb::core::ParamMap&) { return std::make_unique<Refuses>(); };
  registry.add(std::move(entry));
  AuditSpec spec;
  spec.algorithm = "test.refuses";
  spec.neighbours = NeighbourKind::search;
  CHECK_THROWS_WITH(run_audit(spec, registry),
                    Catch::Contains("found no pair of neighbours test.refuses accepts") &&
                        Catch::Contains("refuses every input"));
}

namespace {

// The suite's audit rows (configs/experiments/audits.yaml) with their neighbours and score forgotten: the search
// chooses both. Pilots of search_trials = trials / 20 (at least the default 500): an event rarer than a few in the
// pilot's runs cannot rank its pair (the halved histogram threshold shows in 1.6e-3 of runs: its row runs 1e5).
std::vector<AuditSpec> untold(bool mutants) {
  const auto suite = load_experiment(dpb::verify::test::configs_dir() / "experiments" / "audits.yaml");
  std::vector<AuditSpec> specs;
  for (AuditSpec spec : suite.audits) {
    if (alg::algorithm_registry().find(spec.algorithm).mutant != mutants) continue;
    spec.neighbours = NeighbourKind::search;
    spec.score.clear();
    spec.search_trials = std::max(AuditSpec{}.search_trials, spec.trials / 20);
    specs.push_back(spec);
  }
  return specs;
}

}  // namespace

TEST_CASE("every mutant of the suite is flagged by the search, told neither its neighbours nor its score",
          "[audit][statistical][slow]") {
  // Issue 18: "bugs ... caught without being told where they are". Seed 1 as in the suite; each flagged mutant
  // shows eps_lb well above its claim (1.4-31 of 1 when measured), the thresholds being the claims themselves.
  const std::vector<AuditSpec> specs = untold(true);
  REQUIRE(specs.size() >= 25);
  for (const AuditSpec& spec : specs) {
    const AuditResult r = run_audit(spec);
    INFO(spec.algorithm << ": " << to_string(r.construction) << ", " << r.score << ", eps_lb " << r.epsilon_lower());
    if (expected_verdict(spec) == AuditExpectation::ledger)
      CHECK_FALSE(alg::within_claim(r.spent, r.claim));  // noise x0.8: its ledger flags it
    else
      CHECK(r.verdict == AuditVerdict::violation);
  }
}

TEST_CASE("the search does not flag the suite's sharp audits of real algorithms", "[audit][statistical][slow]") {
  // The rows whose audits come nearest their claims (>= 20000 runs per side, 0.84-0.89 of the claim at seed 1 with
  // the search's own choice) are where a search that spent the audit's confidence on its choice would show it.
  // Claims made under the model (cai2024, Analyze Gauss without clipping) are left out: the search's canaries break
  // the assumption they rest on, as the plain canary does (docs/auditing.md).
  int audited = 0;
  for (const AuditSpec& spec : untold(false)) {
    if (spec.trials < 20000) continue;
    const AuditResult r = run_audit(spec);
    if (r.claim.scope != alg::ClaimScope::worst_case) continue;
    INFO(spec.algorithm << ": " << to_string(r.construction) << ", " << r.score << ", eps_lb " << r.epsilon_lower());
    CHECK(r.verdict == AuditVerdict::pass);
    ++audited;
  }
  CHECK(audited >= 8);
}

TEST_CASE("the search tries only scores that read a number the output holds", "[audit]") {
  // The Laplace mean releases a mean: `top_eigenvalue` and `scalar` would score every run BOTTOM, a constant that
  // can only tie at 0 and, ranked first, audit nothing.
  AuditSpec spec;
  spec.algorithm = "baseline.laplace_mean";
  spec.privacy = {1.0, 0.0};
  spec.n = 50;
  spec.d = 3;
  spec.trials = 200;
  spec.search_trials = 100;
  spec.neighbours = NeighbourKind::search;
  const AuditResult r = run_audit(spec);
  REQUIRE_FALSE(r.search.empty());
  for (const SearchTrial& t : r.search) {
    CHECK(t.score != "top_eigenvalue");
    CHECK(t.score != "scalar");
  }
  CHECK(r.score == "mean_projection");
}
