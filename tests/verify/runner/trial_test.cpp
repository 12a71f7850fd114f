#include "verify/runner/trial.hpp"

#include <catch2/catch.hpp>

#include "verify/experiment/experiment_fixture.hpp"

using namespace dpb::verify;

TEST_CASE("a trial's data depend on (cell, trial), its noise also on the algorithm", "[runner]") {
  const auto spec = verify::test::parse_text(verify::test::kTinyExperiment);
  const auto cells = make_cells(spec);
  const auto& registry = dpb::alg::algorithm_registry();
  const auto& nonprivate = spec.algorithms[0];
  const auto estimator = registry.make(nonprivate.id, nonprivate.given);
  const TrialRow a = run_trial(spec, 0, cells[0], nonprivate, *estimator, 1);
  CHECK(a.error.empty());
  CHECK(a.algorithm == "baseline.nonprivate_pca");
  CHECK(a.cell_params == cells[0].params);
  REQUIRE(a.metrics.count("projector_fro") == 1);
  // Deterministic: the same task gives the same metrics bit for bit.
  CHECK(run_trial(spec, 0, cells[0], nonprivate, *estimator, 1).metrics == a.metrics);
  // Another trial draws other data.
  CHECK(run_trial(spec, 0, cells[0], nonprivate, *estimator, 2).metrics != a.metrics);
}

TEST_CASE("a failing algorithm gives a row with its error, never an exception", "[runner]") {
  // dugler_shifted gives sample matrices only; baseline.nonprivate_pca needs vectors.
  const auto spec = verify::test::parse_text(
      verify::test::tiny_with("model", "model: { name: dugler_shifted, d: 6, k: 2 }"));
  const auto cells = make_cells(spec);
  const auto& nonprivate = spec.algorithms[0];
  const auto estimator = dpb::alg::algorithm_registry().make(nonprivate.id, nonprivate.given);
  const TrialRow row = run_trial(spec, 0, cells[0], nonprivate, *estimator, 0);
  CHECK_THAT(row.error, Catch::Contains("not vectors"));
  CHECK(row.metrics.empty());
}

TEST_CASE("a row keeps the estimate's counters but not the per-step ones", "[runner]") {
  dpb::alg::Diagnostics d;
  d.counters = {{"bottom", 1}, {"ada.skipped_steps", 9}, {"ada.Lhat_12", 0.5}, {"sigma_3", 2}, {"range_", 1},
                {"pass2x", 4}};
  CHECK(dpb::verify::summary_counters(d) ==
        std::map<std::string, double>{{"bottom", 1}, {"ada.skipped_steps", 9}, {"range_", 1}, {"pass2x", 4}});
}
