#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "algorithms/pca/dugler2026_support.hpp"
#include "algorithms/pca/dugler2026_two_stage.hpp"
#include "core/errors.hpp"
#include "core/samplers.hpp"

using namespace dpb;
using namespace dpb::alg::dugler2026;
namespace dt = dpb::test::dugler;

namespace {

// d = 3 vectors x ~ N(0, diag(4, 1, 0.25)), A_i = x_i x_i^T: feasible for both stages at eps = 0.9.
Eigen::MatrixXd spiked_vectors(long n, std::uint64_t seed) {
  core::Rng rng(seed, 5);
  Eigen::MatrixXd X = core::standard_normal_matrix(rng, 3, n);
  X.row(0) *= 2.0;
  X.row(2) *= 0.5;
  return X;
}

alg::Input vector_input(const core::SampleMatrices& S) {
  alg::Input in;
  in.samples = &S;
  in.k = 1;
  in.privacy = alg::Privacy{0.9, 0.01, alg::Neighbours::replace};
  return in;
}

}  // namespace

TEST_CASE("dugler2026.two_stage rejects a warm fraction outside (0, 1) and too few samples", "[dugler2026]") {
  const core::VectorSamples S(spiked_vectors(4000, 1));
  core::Rng rng(1, 1);
  for (const double f : {0.0, 1.0, -0.5, 1.5}) {
    TwoStageParams p;
    p.warm_fraction = f;
    CHECK_THROWS_WITH(two_stage(vector_input(S), p, rng), Catch::Contains("warm_fraction"));
  }
  const core::VectorSamples tiny(spiked_vectors(3, 1));
  CHECK_THROWS_AS(two_stage(vector_input(tiny), TwoStageParams{}, rng), InvalidArgument);
}

TEST_CASE("dugler2026.two_stage splits at floor(warm_fraction n), each stage reads only its own part",
          "[dugler2026]") {
  const long n = 160000;
  const Eigen::MatrixXd X = spiked_vectors(n, 2);
  const core::VectorSamples S(X);
  TwoStageParams p;
  p.warm_fraction = 0.3;
  // Theorem 5's blocks (b >= K^2 d log(k m / zeta')) and n = 1.6e5: with fewer samples (4e4) or smaller blocks
  // TADADPO's range estimate is BOTTOM at both steps and the refinement never moves, which would hide what it
  // reads.
  p.warm.adaptive.block_min = p.refine.adaptive.block_min = AdaptiveSettings::BlockMin::theory;
  const long n_warm = 48000;  // floor(0.3 * 160000)
  core::Rng rng(7, 1);
  const auto e = two_stage(vector_input(S), p, rng);
  const auto& c = e.diagnostics.counters;
  CHECK(c.at("warm_samples") == n_warm);
  CHECK(c.at("refine_samples") == n - n_warm);
  CHECK(c.at("warm.batch_size") * c.at("warm.planned_steps") <= n_warm);
  CHECK(c.at("refine.batch_size") * c.at("refine.planned_steps") <= n - n_warm);
  CHECK(c.at("refine.batch_size") * c.at("refine.planned_steps") > n_warm);  // it used the larger part

  // The same result from the stages run by hand on [0, n_warm) and [n_warm, n).
  const SampleRange warm_part(S, 0, n_warm), refine_part(S, n_warm, n - n_warm);
  alg::Input warm_in = vector_input(warm_part), refine_in = vector_input(refine_part);
  core::Rng parent(7, 1), warm_rng = parent.child("warm"), refine_rng = parent.child("refine");
  const auto warm = adadpo(warm_in, p.warm, warm_rng, "warm.");
  const auto refined = tadadpo(refine_in, p.refine, refine_rng, &*warm.Q, "refine.");
  CHECK(*refined.Q == *e.Q);
  for (const auto& [name, value] : warm.diagnostics.counters) CHECK(c.at(name) == value);
  // The release notes: the warm stage's, then the refinement's (each says which stage skipped steps). Here
  // PRIVRANGE released nothing at 3 of the warm stage's 6 steps.
  REQUIRE(warm.release_notes.size() == 1);
  std::vector<std::string> notes = warm.release_notes;
  notes.insert(notes.end(), refined.release_notes.begin(), refined.release_notes.end());
  CHECK(e.release_notes == notes);
  for (const auto& note : e.release_notes)
    CHECK_THAT(note, Catch::StartsWith("the warm stage: ") || Catch::StartsWith("the refine stage: "));
  // The ledger: the warm stage's entries, then the refinement's, each named by its stage.
  const auto& entries = e.ledger.entries();
  REQUIRE(entries.size() == warm.ledger.entries().size() + refined.ledger.entries().size());
  const std::size_t n_warm_entries = warm.ledger.entries().size();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const bool is_warm = i < n_warm_entries;
    const auto& stage = is_warm ? warm.ledger.entries()[i] : refined.ledger.entries()[i - n_warm_entries];
    CHECK(entries[i].step == stage.step);
    CHECK(entries[i].uses == stage.uses);
    CHECK(entries[i].step.rfind(is_warm ? "warm.ADADPO " : "refine.TADADPO ", 0) == 0);
  }

  // Disjointness: changing the refinement part leaves every warm-stage release unchanged (and changes
  // the result); changing the warm part changes the warm stage.
  Eigen::MatrixXd X_refine = X, X_warm = X;
  X_refine.rightCols(n - n_warm) *= 1.5;
  X_warm.leftCols(n_warm) *= 1.5;
  const core::VectorSamples S_refine(X_refine), S_warm(X_warm);
  core::Rng r1(7, 1), r2(7, 1);
  const auto e_refine = two_stage(vector_input(S_refine), p, r1);
  const auto e_warm = two_stage(vector_input(S_warm), p, r2);
  bool warm_changed = false;
  for (const auto& [name, value] : e.diagnostics.counters) {
    if (name.rfind("warm.", 0) != 0) continue;
    CHECK(e_refine.diagnostics.counters.at(name) == value);
    if (name.rfind("warm.Lhat_", 0) ==
        0) {  // a step whose PRIVRANGE gave BOTTOM on the changed data has none
      const auto changed = e_warm.diagnostics.counters.find(name);
      warm_changed |= changed == e_warm.diagnostics.counters.end() || changed->second != value;
    }
  }
  CHECK(warm_changed);
  // The refinement took a step (a step PRIVRANGE skips records no sigma_t): otherwise Q could not change.
  const auto& counters = e.diagnostics.counters;
  for (const auto& [name, value] : counters)
    if (name.rfind("refine.", 0) == 0) UNSCOPED_INFO(name << " = " << value);
  REQUIRE(std::any_of(counters.begin(), counters.end(),
                      [](const auto& entry) { return entry.first.rfind("refine.sigma_", 0) == 0; }));
  CHECK(*e_refine.Q != *e.Q);
}

TEST_CASE("dugler2026.two_stage claim: (eps, delta) once, by parallel composition over disjoint parts",
          "[dugler2026]") {
  const core::VectorSamples S(spiked_vectors(100, 3));
  const alg::Input in = vector_input(S);
  TwoStageParams p;
  const auto claim = two_stage_claim(p, in);
  CHECK(claim.epsilon == in.privacy.epsilon);  // not 2 eps: each record is used by one stage only
  CHECK(claim.delta == in.privacy.delta);
  CHECK(claim.neighbours == alg::Neighbours::replace);
  CHECK(claim.scope == alg::ClaimScope::worst_case);
  const auto has = [](const alg::PrivacyClaim& c, const std::string& what) {
    for (const auto& s : c.conditions)
      if (s.find(what) != std::string::npos) return true;
    return false;
  };
  CHECK(has(claim, "disjoint"));
  CHECK_FALSE(has(claim, "other Gaussian calibration"));
  p.refine.adaptive.calibration = alg::GaussianCalibration::analytic;
  CHECK(has(two_stage_claim(p, in), "other Gaussian calibration"));
}

TEST_CASE("dugler2026.two_stage converges from its own warm start, deterministic per seed", "[dugler2026]") {
  // The warm start's error (ADADPO on 1e5, ~0.15) contracted by TADADPO's ~11 steps at rate <= 0.5 on
  // d = 6, k = 2, sigma = 0.25 (TADADPO alone reaches ~0.07 there): bound 0.3.
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    const auto data = dt::shifted(6, 2, 0.25, 200000, seed);
    TwoStageParams ts;
    ts.warm.lr.family = LearningRateFamily::constant;
    ts.warm.lr.eta = 10;
    ts.refine = dt::constant_rate<TadadpoParams>(0.5);
    core::Rng rng2(seed, 3);
    const auto two = two_stage(data.input(2, 1, 0.01), ts, rng2);
    CHECK(dt::error(*two.Q, data.model->info()) < 0.3);
    CHECK(two.diagnostics.counters.at("warm_samples") == 100000);
    CHECK(two.diagnostics.counters.count("warm.batch_size") == 1);
    CHECK(two.diagnostics.counters.count("refine.batch_size") == 1);
    core::Rng rng3(seed, 3);
    CHECK(*two_stage(data.input(2, 1, 0.01), ts, rng3).Q == *two.Q);
    // Each half batch of either stage is read by its own releases only: by parallel composition (Lemma 13)
    // the run spends the largest half's, (eps, delta).
    CHECK(dt::within(dt::spent(two.ledger, 0.01), 1, 0.01));
    CHECK(dt::parts(two.ledger) >= 4);
  }
}
