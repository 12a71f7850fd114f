#include "verify/experiment/tuned_by.hpp"

#include <catch2/catch.hpp>

#include "core/errors.hpp"
#include "verify/experiment/experiment_fixture.hpp"

using namespace dpb::verify;

namespace {

// The tiny experiment with DP-Gauss-1 as a placeholder (clip_constant = 2), a check and a display name on it.
ExperimentSpec tuned_figure() {
  return test::parse_text(test::tiny_with("algorithms", R"(tuned_by: tuning
checks:
  - { kind: dominates, algorithm: baseline.dp_gauss_1, against: baseline.nonprivate_pca, metric: sin }
  - { kind: dominates, algorithm: baseline.nonprivate_pca, against: baseline.dp_gauss_1, metric: sin }
algorithms:)") + "\n");
}

AlgorithmSpec candidate(const std::string& yaml) {
  return test::parse_text(test::tiny_with("algorithms", "algorithms:\n  - " + yaml) + "\n").algorithms.front();
}

}  // namespace

TEST_CASE("tuned_by: the selected candidate replaces the placeholder, and the checks follow it", "[experiment][tuning]") {
  ExperimentSpec figure = tuned_figure();
  CHECK(figure.tuned_by == "tuning");
  figure.report.algorithm_names["baseline.dp_gauss_1[clip_constant=2]"] = "DP-Gauss-1";
  figure.algorithms[1].name = "DP-Gauss-1";
  const AlgorithmSpec selected = candidate("baseline.dp_gauss_1: { clip_constant: 3, zeta: 0.05 }");
  use_selected_candidate(figure, selected);
  REQUIRE(figure.algorithms.size() == 2);
  CHECK(figure.algorithms[1].label == "baseline.dp_gauss_1[clip_constant=3,zeta=0.05]");
  CHECK(figure.algorithms[1].resolved.get_real("zeta", 0, "test") == 0.05);
  CHECK(figure.algorithms[1].name == "DP-Gauss-1");  // the figure's own name for it stays
  CHECK(figure.checks[0].algorithm == selected.label);
  CHECK(figure.checks[1].against == selected.label);
  CHECK(figure.report.algorithm_names.count("baseline.dp_gauss_1[clip_constant=2]") == 0);
  CHECK(figure.report.algorithm_names.at(selected.label) == "DP-Gauss-1");
}

TEST_CASE("tuned_by: a placeholder listed twice is an error, one left out by --only is no change",
          "[experiment][tuning]") {
  ExperimentSpec twice = tuned_figure();
  twice.algorithms.push_back(candidate("baseline.dp_gauss_1: { clip_constant: 5 }"));
  CHECK_THROWS_WITH(use_selected_candidate(twice, candidate("baseline.dp_gauss_1")),
                    Catch::Contains("must list baseline.dp_gauss_1 once, not 2 times"));

  ExperimentSpec without = tuned_figure();
  without.algorithms.pop_back();
  const auto before = without.algorithms.size();
  use_selected_candidate(without, candidate("baseline.dp_gauss_1"));
  CHECK(without.algorithms.size() == before);
}

TEST_CASE("tuned_by: the tuning experiment must run earlier and select", "[experiment][tuning]") {
  ExperimentSpec tuning = test::parse_text(test::tiny_with("name", "name: tuning") + "report: { select: { metric: sin } }\n");
  REQUIRE(tuning.report.selection);
  const ExperimentSpec figure = tuned_figure();
  check_tuning_order({tuning, figure});
  CHECK_THROWS_WITH(check_tuning_order({figure, tuning}), Catch::Contains("tiny is tuned by tuning, which does not run before it"));
  CHECK_THROWS_WITH(check_tuning_order({figure}), Catch::Contains("does not run before it"));
  tuning.report.selection.reset();
  CHECK_THROWS_WITH(check_tuning_order({tuning, figure}), Catch::Contains("selects nothing"));
}
