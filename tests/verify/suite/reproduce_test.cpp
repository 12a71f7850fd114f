#include "verify/suite/reproduce.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unistd.h>

#include "core/errors.hpp"
#include "tests/verify/datasets/tiny_mnist.hpp"
#include "tests/verify/experiment/experiment_fixture.hpp"

namespace fs = std::filesystem;
using dpb::verify::Scale;

namespace {

// A papers root with paper "demo": figures "a" (with a quick file) and "b" (without), and an empty
// paper "other"; removed at the end of the test.
struct PapersTree {
  fs::path root = fs::temp_directory_path() / ("dpb_reproduce_test_" + std::to_string(::getpid()));
  PapersTree() {
    fs::create_directories(root / "demo");
    fs::create_directories(root / "other");
    std::ofstream(root / "demo" / "a.yaml") << dpb::verify::test::kTinyExperiment;
    std::ofstream(root / "demo" / "a.quick") << "# shrink\ntrials=2   # fewer\n\n  grid.n=[100]\n";
    std::ofstream(root / "demo" / "b.yaml") << dpb::verify::test::kTinyExperiment;
    std::ofstream(root / "demo" / "notes.md") << "not a figure";
  }
  ~PapersTree() { fs::remove_all(root); }
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("reproduce: scales are quick or paper", "[reproduce]") {
  CHECK(dpb::verify::parse_scale("quick") == Scale::quick);
  CHECK(dpb::verify::parse_scale("paper") == Scale::paper);
  CHECK(dpb::verify::to_string(Scale::paper) == "paper");
  CHECK_THROWS_WITH(dpb::verify::parse_scale("full"), Catch::Contains("allowed: quick, paper"));
}

TEST_CASE("reproduce: papers are folders, figures their YAML files", "[reproduce]") {
  const PapersTree tree;
  CHECK(dpb::verify::known_papers(tree.root) == std::vector<std::string>{"demo", "other"});
  CHECK(dpb::verify::paper_figures(tree.root, "demo") == std::vector<std::string>{"a", "b"});
  CHECK_THAT(error_of([&] { dpb::verify::paper_figures(tree.root, "dem"); }),
             Catch::Contains("no reproduction of paper 'dem'") && Catch::Contains("known: demo, other"));
}

TEST_CASE("reproduce: the quick scale applies the figure's .quick edits", "[reproduce]") {
  const PapersTree tree;
  CHECK(dpb::verify::quick_overrides(tree.root / "demo" / "a.yaml") ==
        std::vector<std::string>{"trials=2", "grid.n=[100]"});
  const auto quick = dpb::verify::load_reproduction(tree.root, "demo/a", Scale::quick);
  CHECK(quick.suite.name == "reproduce-demo-quick");
  REQUIRE(quick.suite.experiments.size() == 1);
  CHECK(quick.suite.experiments[0].trials == 2);
  const auto paper = dpb::verify::load_reproduction(tree.root, "demo", Scale::paper);
  REQUIRE(paper.suite.experiments.size() == 2);
  CHECK(paper.suite.experiments[0].trials == 3);  // kTinyExperiment's
  CHECK_THROWS_AS(dpb::verify::load_reproduction(tree.root, "demo", Scale::quick), dpb::ConfigError);  // b.quick
  CHECK_THAT(error_of([&] { dpb::verify::load_reproduction(tree.root, "demo/c", Scale::paper); }),
             Catch::Contains("paper demo has no figure 'c'") && Catch::Contains("known: a, b"));
}

TEST_CASE("reproduce: a dataset figure reads --data, without its files it is skipped among all figures, an "
          "error alone", "[reproduce]") {
  const PapersTree tree;
  const fs::path data = tree.root / "digits";
  std::ofstream(tree.root / "demo" / "b.yaml")
      << "name: b\ndata: { name: mnist, path: " << (tree.root / "absent").string()
      << ", digits: [1], per_digit: 2, rank: 1, noise_eigenvalues: [1, 2] }\nn: 2\n"
         "algorithms: [baseline.nonprivate_pca]\nmetrics: [explained_variance]\n";
  const auto all = dpb::verify::load_reproduction(tree.root, "demo", Scale::paper);
  REQUIRE(all.suite.experiments.size() == 1);  // a only
  REQUIRE(all.skipped.size() == 1);
  CHECK_THAT(all.skipped[0], Catch::Contains("demo/b: skipped: no data") && Catch::Contains("--data DIR"));
  CHECK_THAT(error_of([&] { dpb::verify::load_reproduction(tree.root, "demo/b", Scale::paper); }),
             Catch::Contains("dpbounds does not download data"));
  CHECK_THAT(error_of([&] { dpb::verify::load_reproduction(tree.root, "demo", Scale::paper, data.string()); }),
             Catch::Contains(data.string()));  // asked for with --data: an error, not a skip
  dpb::test::write_tiny_mnist(data, {1, 1}, 4, [](int i, int r, int c) { return i + r + c; });
  const auto with_data = dpb::verify::load_reproduction(tree.root, "demo", Scale::paper, data.string());
  CHECK(with_data.skipped.empty());
  REQUIRE(with_data.suite.experiments.size() == 2);
  CHECK(with_data.suite.experiments[1].data->path == data.string());
}

TEST_CASE("reproduce: a tuned figure brings its tuning experiment along, and the tuning runs first", "[reproduce][tuning]") {
  const PapersTree tree;
  // "z" tunes "b": sorted by name, z would come last.
  std::ofstream(tree.root / "demo" / "b.yaml") << dpb::verify::test::kTinyExperiment << "tuned_by: z-tuning\n";
  std::ofstream(tree.root / "demo" / "z.yaml")
      << dpb::verify::test::tiny_with("name", "name: z-tuning") << "report: { select: { metric: sin } }\n";
  const auto alone = dpb::verify::load_reproduction(tree.root, "demo/b", Scale::paper);
  REQUIRE(alone.suite.experiments.size() == 2);
  CHECK(alone.suite.experiments[0].name == "z-tuning");
  CHECK(alone.suite.experiments[1].name == "tiny");
  const auto all = dpb::verify::load_reproduction(tree.root, "demo", Scale::paper);
  REQUIRE(all.suite.experiments.size() == 3);
  CHECK(all.suite.experiments[0].name == "z-tuning");
  std::ofstream(tree.root / "demo" / "z.yaml") << dpb::verify::test::kTinyExperiment;  // renamed: b's tuning is gone
  CHECK_THAT(error_of([&] { dpb::verify::load_reproduction(tree.root, "demo/b", Scale::paper); }),
             Catch::Contains("tuned by z-tuning, which does not run before it"));
}
