#include "verify/experiment/parse.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"

#include "verify/experiment/canonical.hpp"
#include "verify/experiment/experiment_fixture.hpp"

using namespace dpb::verify;
using test::kTinyExperiment;
using test::parse_error;
using test::tiny_with;

TEST_CASE("an experiment parses into its spec with defaults resolved", "[experiment]") {
  const ExperimentSpec spec = test::parse_text(kTinyExperiment);
  CHECK(spec.name == "tiny");
  CHECK(spec.seed == 7);
  CHECK(spec.trials == 3);
  CHECK(spec.model == "spiked_gaussian");
  CHECK(std::get<double>(spec.model_params.values().at("lambda")) == 4);
  REQUIRE(spec.grid.size() == 1);
  CHECK(spec.grid[0].axes == std::vector<std::string>{"n"});
  CHECK(spec.grid[0].values[0] == std::vector<double>{200, 400});
  CHECK(spec.privacy.delta == 1e-5);
  REQUIRE(spec.algorithms.size() == 2);
  CHECK(spec.algorithms[0].label == "baseline.nonprivate_pca");
  CHECK(spec.algorithms[1].label == "baseline.dp_gauss_1[clip_constant=2]");
  // Resolution fills every schema default: the given value and a default both appear.
  CHECK(std::get<double>(spec.algorithms[1].resolved.values().at("clip_constant")) == 2);
  CHECK(spec.algorithms[1].resolved.has("calibration"));
  CHECK(spec.metrics == std::vector<std::string>{"projector_fro", "sin"});
}

TEST_CASE("every YAML error names file:line:column and what is allowed", "[experiment]") {
  // Lines of kTinyExperiment: 4 model, 5 grid, 6 privacy, 7 algorithms, 8-9 items, 10 metrics.
  SECTION("unknown top-level key, with the nearest name") {
    const auto e = parse_error(std::string(kTinyExperiment) + "trails: 4\n");
    CHECK_THAT(e, Catch::StartsWith("exp.yaml:11:1: unknown key 'trails'"));
    CHECK_THAT(e, Catch::Contains("did you mean 'trials'"));
  }
  SECTION("wrong type") {
    const auto e = parse_error(tiny_with("trials", "trials: many"));
    CHECK_THAT(e, Catch::StartsWith("exp.yaml:3:9: trials must be a finite number"));
    CHECK_THAT(parse_error(tiny_with("grid", "grid: { n: { a: 1 } }")), Catch::StartsWith("exp.yaml:5:12: grid axis n must be"));
    CHECK_THAT(parse_error(tiny_with("metrics", "metrics: projector_fro")), Catch::StartsWith("exp.yaml:10:10: metrics must be a list"));
  }
  SECTION("unknown algorithm, model and metric ids suggest the nearest") {
    const auto a = parse_error(tiny_with("  - baseline.nonprivate_pca", "  - baseline.nonprivat_pca"));
    CHECK_THAT(a, Catch::StartsWith("exp.yaml:8:5: unknown algorithm 'baseline.nonprivat_pca' (did you mean 'baseline.nonprivate_pca'?)"));
    const auto m = parse_error(tiny_with("model", "model: { name: spiked_gausian, d: 5 }"));
    CHECK_THAT(m, Catch::StartsWith("exp.yaml:4:16: unknown model 'spiked_gausian' (did you mean 'spiked_gaussian'?)"));
    const auto k = parse_error(tiny_with("metrics", "metrics: [projector_fr]"));
    CHECK_THAT(k, Catch::StartsWith("exp.yaml:10:11: unknown metric 'projector_fr' (did you mean 'projector_fro'?)"));
  }
  SECTION("unknown algorithm and model parameters") {
    const auto a = parse_error(tiny_with("  - baseline.dp_gauss_1", "  - baseline.dp_gauss_1: { clip_konstant: 2 }"));
    CHECK_THAT(a, Catch::StartsWith("exp.yaml:9:28: unknown key 'clip_konstant' in the parameters of baseline.dp_gauss_1 (did you mean "
                  "'clip_constant'?)"));
    const auto m = parse_error(tiny_with("model", "model: { name: spiked_gaussian, dd: 5 }"));
    CHECK_THAT(m, Catch::StartsWith("exp.yaml:4:33: unknown key 'dd' in model spiked_gaussian"));
  }
  SECTION("algorithm parameter outside its documented range: the registry's message at the value") {
    const auto e = parse_error(tiny_with("  - baseline.dp_gauss_1", "  - baseline.dp_gauss_1: { clip_constant: -2 }"));
    CHECK_THAT(e, Catch::StartsWith("exp.yaml:9:43: "));
    CHECK_THAT(e, Catch::Contains("clip_constant"));
  }
  SECTION("invalid values of the run itself") {
    CHECK_THAT(parse_error(tiny_with("grid", "grid: { n: [200, 0] }")), Catch::StartsWith("exp.yaml:5:12: grid axis n has value 0"));
    CHECK_THAT(parse_error(tiny_with("privacy", "privacy: { epsilon: -1 }")), Catch::StartsWith("exp.yaml:6:10: "));
    // A swept budget meets the same rule in every cell (algorithms/privacy.hpp: one definition).
    CHECK_THAT(parse_error(tiny_with("grid", "grid: { n: [200], epsilon: [1, 0] }")),
               Catch::Contains("epsilon must be a finite number > 0, got 0"));
    CHECK_THAT(parse_error(tiny_with("grid", "grid: { n: [200], delta: [1e-5, 1] }")),
               Catch::Contains("delta must lie in [0, 1), got 1"));
    CHECK_THAT(parse_error(tiny_with("grid", "grid: { epsilon: [1] }")), Catch::Contains("no sample size"));
    CHECK_THAT(parse_error(tiny_with("name", "name: a/b")), Catch::StartsWith("exp.yaml:1:7: name is also a directory name"));
    for (const char* bad : {".hidden", "-flag", "a b", "_x", "é"})
      CHECK_THAT(parse_error(tiny_with("name", std::string("name: \"") + bad + "\"")), Catch::Contains("name is also a directory name"));
    CHECK(test::parse_text(tiny_with("name", "name: Run.2_b-c")).name == "Run.2_b-c");
  }
  SECTION("a swept model parameter is validated by the model in every cell") {
    const std::string text = tiny_with("model", "model: { name: spiked_gaussian, r: 1 }");
    const auto e = parse_error(text.substr(0, text.find("grid:")) + "grid: { n: [200], d: [5, -1] }" +
                               text.substr(text.find("\nprivacy")));
    CHECK_THAT(e, Catch::StartsWith("exp.yaml:5:7: "));
  }
}

TEST_CASE("zipped grid axes advance together and must have equal lengths", "[experiment]") {
  const auto spec = test::parse_text(tiny_with("grid", "grid: { zip: { n: [200, 400], epsilon: [0.5, 1] } }"));
  REQUIRE(spec.grid.size() == 1);
  CHECK(spec.grid[0].axes == std::vector<std::string>{"n", "epsilon"});
  CHECK_THAT(parse_error(tiny_with("grid", "grid: { zip: { n: [200, 400], epsilon: [0.5] } }"))
            , Catch::StartsWith("exp.yaml:5:40: zipped axes advance together"));
  // A model parameter fixed in model: cannot be swept.
  CHECK_THAT(parse_error(tiny_with("grid", "grid: { n: [200], lambda: [2, 4] }")), Catch::StartsWith("exp.yaml:5:19: unknown key 'lambda'"));
}

TEST_CASE("checks and report are validated against the experiment", "[experiment]") {
  const std::string base = kTinyExperiment;
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: rates, theorem: x }\n"), Catch::StartsWith("exp.yaml:12:13: unknown check kind 'rates' (did you mean 'rate'?)"));
  CHECK_THAT(parse_error(base + "checks:\n  - { theorem: no.such.theorem, algorithm: baseline.nonprivate_pca }\n")
            , Catch::StartsWith("exp.yaml:12:16: unknown theorem 'no.such.theorem'"));
  const auto report = test::parse_text(base + "report: { table: { rows: n, stat: median_iqr }, figure: { y: sin, log: x } }\n").report;
  REQUIRE(report.tables.size() == 1);
  CHECK(report.tables[0].stat == "median_iqr");
  REQUIRE(report.figures.size() == 1);
  CHECK(report.figures[0].log_x);
  CHECK_FALSE(report.figures[0].log_y);
  CHECK_THAT(parse_error(base + "report: { figure: { y: cov_op } }\n"), Catch::StartsWith("exp.yaml:11:24: unknown metric 'cov_op'"));
  CHECK(test::parse_text(base + "report: { select: { metric: sin } }\n").report.selection->metric == "sin");
  CHECK_FALSE(report.selection);
  CHECK_THAT(parse_error(base + "report: { select: { metric: cov_op } }\n"),
             Catch::StartsWith("exp.yaml:11:29: unknown metric") && Catch::Contains("'cov_op'"));
  CHECK_THAT(parse_error(base + "report: { select: {} }\n"), Catch::Contains("select needs 'metric'"));
}

TEST_CASE("a check's params fix theorem constants, what varies per cell and non-numbers are refused", "[experiment]") {
  // Thm 3.3 speaks of Private Oja, which the tiny experiment lacks: the override says the check is here for its
  // params alone.
  const std::string base = std::string(kTinyExperiment) +
                           "checks:\n  - { theorem: liu2022.thm3.3, algorithm: baseline.dp_gauss_1, metric: sin, vary: n, "
                           "override: params, params: ";
  const auto spec = test::parse_text(base + "{ M: 50, lr_mult: 0.75 } }\n");
  REQUIRE(spec.checks.size() == 1);
  CHECK(spec.checks[0].params == std::map<std::string, double>{{"M", 50}, {"lr_mult", 0.75}});
  CHECK_THAT(parse_error(base + "{ M: many } }\n"), Catch::StartsWith("exp.yaml:12:117: check param 'M' must be a finite number"));
  CHECK_THAT(parse_error(base + "[M, 50] }\n"), Catch::StartsWith("exp.yaml:12:112: check params must be a map of names to numbers"));
  CHECK_THAT(parse_error(base + "{ n: 100 } }\n"), Catch::StartsWith("exp.yaml:12:114: check param 'n' varies from cell to cell"));
  CHECK_THAT(parse_error(base + "{ epsilon: 1 } }\n"), Catch::Contains("check param 'epsilon' varies"));
  // Issue 24: the theorems' old name for epsilon would now be read by none of them.
  CHECK_THAT(parse_error(base + "{ eps: 1 } }\n"), Catch::Contains("check param 'eps': the privacy budget is 'epsilon'"));
  CHECK_THAT(parse_error(base + "{ M: .nan } }\n"), Catch::Contains("must be a finite number"));
  CHECK_THAT(parse_error(std::string(kTinyExperiment) + "checks:\n  - { kind: consistency, theorem: liu2022.thm3.3, against: liu2022.eq6, params: { M: 1 } }\n"),
             Catch::Contains("a consistency check reads no cells"));
}

TEST_CASE("the audit section goes through the auditor's parser with the experiment's defaults", "[experiment]") {
  const auto spec = test::parse_text(std::string(kTinyExperiment) + "audit: { algorithm: baseline.dp_gauss_1, trials: 100 }\n");
  REQUIRE(spec.audits.size() == 1);
  CHECK(spec.audits[0].algorithm == "baseline.dp_gauss_1");
  CHECK(spec.audits[0].trials == 100);
  CHECK(spec.audits[0].privacy.delta == 1e-5);  // from privacy:
  CHECK(spec.audits[0].seed == 7);              // from seed:
  const auto two = test::parse_text(std::string(kTinyExperiment) + "audit:\n  - { algorithm: a.b }\n  - { algorithm: c.d }\n");
  CHECK(two.audits.size() == 2);
  CHECK_THAT(parse_error(std::string(kTinyExperiment) + "audit: { algorithm: baseline.dp_gauss_1, trails: 100 }\n"),
             Catch::StartsWith("exp.yaml:11:"));
}

TEST_CASE("files: unreadable and malformed YAML are ConfigErrors with a location", "[experiment]") {
  CHECK_THROWS_AS(load_experiment("no/such/file.yaml"), dpb::ConfigError);
  const auto file = std::filesystem::temp_directory_path() / "dpb_parse_test_bad.yaml";
  std::ofstream(file) << "name: x\nmodel: [unclosed\n";
  try {
    load_experiment(file);
    FAIL("malformed YAML parsed");
  } catch (const dpb::ConfigError& e) {
    CHECK(std::string(e.what()).rfind(file.string() + ":3:1: ", 0) == 0);
  }
  std::filesystem::remove(file);
}

TEST_CASE("an experiment without algorithms is audit-only: name, source, seed, privacy and audit", "[experiment]") {
  const auto spec = test::parse_text(
      "name: audits\nseed: 4\nprivacy: { epsilon: 0.5, delta: 1.0e-6 }\n"
      "audit:\n  - { algorithm: baseline.dp_gauss_1 }\n  - { algorithm: mutant.wishart, epsilon: 1 }\n");
  CHECK(spec.name == "audits");
  CHECK(spec.algorithms.empty());
  REQUIRE(spec.audits.size() == 2);
  CHECK(spec.audits[0].privacy.epsilon == 0.5);  // the experiment's privacy and seed are the defaults
  CHECK(spec.audits[0].privacy.delta == 1e-6);
  CHECK(spec.audits[0].seed == 4);
  CHECK(spec.audits[1].privacy.epsilon == 1);
  // Keys that describe trials have nothing to run without algorithms.
  CHECK_THAT(parse_error("name: a\nmetrics: [sin]\naudit: { algorithm: baseline.dp_gauss_1 }\n"),
             Catch::StartsWith("exp.yaml:2:1:") && Catch::Contains("metrics"));
  CHECK_THAT(parse_error("audit: { algorithm: baseline.dp_gauss_1 }\n"), Catch::Contains("needs 'name'"));
  // Without audits, algorithms stay required.
  CHECK_THAT(parse_error("name: a\nmodel: { name: spiked_gaussian }\nmetrics: [sin]\n"), Catch::Contains("needs 'algorithms'"));
}

TEST_CASE("a dominates check names two of the experiment's algorithms and no theorem", "[experiment]") {
  const std::string base = kTinyExperiment;
  const auto spec = test::parse_text(
      base + "checks:\n  - { kind: dominates, algorithm: baseline.dp_gauss_1, against: baseline.nonprivate_pca, metric: sin }\n");
  REQUIRE(spec.checks.size() == 1);
  CHECK(spec.checks[0].kind == "dominates");
  CHECK(spec.checks[0].algorithm == "baseline.dp_gauss_1[clip_constant=2]");
  CHECK(spec.checks[0].against == "baseline.nonprivate_pca");
  CHECK(spec.checks[0].theorem.empty());
  CHECK(spec.checks[0].tolerance == 0);  // "at or below" unless a tolerance is given
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: dominates, algorithm: baseline.nonprivate_pca, metric: sin }\n"),
             Catch::Contains("a dominates check needs 'against'"));
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: dominates, algorithm: baseline.nonprivate_pca, against: baseline.dp_gauss, metric: sin }\n"),
             Catch::Contains("check algorithm 'baseline.dp_gauss' is not among the experiment's algorithms"));
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: dominates, algorithm: baseline.nonprivate_pca, against: baseline.nonprivate_pca, metric: sin }\n"),
             Catch::Contains("two different algorithms"));
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: dominates, algorithm: baseline.nonprivate_pca, against: baseline.dp_gauss_1, metric: sin, vary: n }\n"),
             Catch::Contains("vary"));
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: dominates, algorithm: baseline.nonprivate_pca, against: baseline.dp_gauss_1, metric: sin, tolerance: -1 }\n"),
             Catch::Contains("tolerance must be >= 0"));
}

TEST_CASE("an exponent check names one algorithm, a swept axis and the claimed exponent, no theorem", "[experiment]") {
  const std::string base = kTinyExperiment;
  const auto spec = test::parse_text(
      base + "checks:\n  - { kind: exponent, algorithm: baseline.nonprivate_pca, metric: sin, vary: n, exponent: -0.5 }\n");
  REQUIRE(spec.checks.size() == 1);
  CHECK(spec.checks[0].kind == "exponent");
  CHECK(spec.checks[0].exponent == -0.5);
  CHECK(spec.checks[0].vary == "n");
  CHECK(spec.checks[0].theorem.empty());
  CHECK(spec.checks[0].tolerance == 0.1);
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: exponent, algorithm: baseline.nonprivate_pca, metric: sin, vary: n }\n"),
             Catch::Contains("an exponent check needs 'exponent'"));
  CHECK(test::parse_text(base + "checks:\n  - { kind: exponent, algorithm: baseline.nonprivate_pca, metric: sin, vary: n, exponent: 1, side: at_least }\n")
            .checks[0].side == "at_least");
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: exponent, algorithm: baseline.nonprivate_pca, metric: sin, vary: n, exponent: 1, side: above }\n"),
             Catch::Contains("unknown exponent side 'above'"));
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: exponent, algorithm: baseline.nonprivate_pca, metric: sin, vary: r, exponent: 1 }\n"),
             Catch::Contains("grid axis"));
  CHECK_THAT(parse_error(base + "checks:\n  - { kind: exponent, algorithm: baseline.nonprivate_pca, metric: sin, vary: n, exponent: 1, theorem: liu2022.thm5.1 }\n"),
             Catch::Contains("theorem"));
}

TEST_CASE("a dominates check may restrict itself to ranges of swept axes", "[experiment]") {
  const std::string base = std::string(kTinyExperiment) + "checks:\n  - { kind: dominates, algorithm: baseline.nonprivate_pca, "
                                                         "against: baseline.dp_gauss_1, metric: sin, where: ";
  const auto spec = test::parse_text(base + "{ n: [100, 1000] } }\n");
  REQUIRE(spec.checks.size() == 1);
  CHECK(spec.checks[0].where.at("n") == std::pair<double, double>{100, 1000});
  CHECK_THAT(parse_error(base + "{ lambda: [1, 2] } }\n"), Catch::Contains("unknown grid axis 'lambda'"));
  CHECK_THAT(parse_error(base + "{ n: [1000, 100] } }\n"), Catch::Contains("[min, max] with min <= max"));
  CHECK_THAT(parse_error(base + "{ n: [1, 2, 3] } }\n"), Catch::Contains("[min, max]"));
  CHECK_THAT(parse_error(base + "[n] }\n"), Catch::Contains("where must be a mapping"));
}

TEST_CASE("an algorithm's label: names it in tables and legends without changing the experiment's key",
          "[experiment][parse]") {
  // Issue 21: display names "overridable per experiment with label:".
  const auto plain = dpb::verify::test::parse_text(dpb::verify::test::kTinyExperiment);
  const auto named = dpb::verify::test::parse_text(dpb::verify::test::tiny_with(
      "  - baseline.dp_gauss_1", "  - baseline.dp_gauss_1: { clip_constant: 2, label: \"Analyze-Gauss, C = 2\" }"));
  REQUIRE(named.algorithms.size() == 2);
  CHECK(named.algorithms[1].label == "baseline.dp_gauss_1[clip_constant=2]");
  CHECK(named.algorithms[1].name == "Analyze-Gauss, C = 2");
  CHECK(named.report.algorithm_names.at("baseline.dp_gauss_1[clip_constant=2]") == "Analyze-Gauss, C = 2");
  CHECK(dpb::verify::content_hash(named) == dpb::verify::content_hash(plain));
  CHECK(plain.report.algorithm_names.empty());
}

TEST_CASE("stream_batch is for algorithms that read sample matrices, from a model", "[parse][streamed]") {
  // kTinyExperiment's algorithms read the data vectors: each is named with the reason.
  const std::string vectors = tiny_with("trials", "trials: 3\nstream_batch: 100");
  CHECK_THAT(parse_error(vectors), Catch::Contains("stream_batch streams the sample matrices A_i, but "
                                                   "baseline.nonprivate_pca reads the whole data set (vectors)"));
  CHECK_THAT(parse_error(tiny_with("trials", "trials: 3\nstream_batch: 0")),
             Catch::Contains("stream_batch"));
  // A streamed trial holds one batch: n = 1e12 at d = 5 passes the memory check that refuses it drawn whole.
  const std::string oja = R"(name: oja
model: { name: spiked_gaussian, d: 5, r: 1, lambda: 4, sigma2: 1 }
grid: { n: [1000000000000] }
algorithms: [liu2022.oja]
metrics: [sin]
)";
  CHECK_THAT(parse_error(oja), Catch::Contains("memory"));
  CHECK(parse_error(oja + "stream_batch: 100000\n") == "");
}
