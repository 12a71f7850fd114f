#include "verify/reproduce.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <unistd.h>

#include "core/errors.hpp"
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
  CHECK(quick.name == "reproduce-demo-quick");
  REQUIRE(quick.experiments.size() == 1);
  CHECK(quick.experiments[0].trials == 2);
  const auto paper = dpb::verify::load_reproduction(tree.root, "demo", Scale::paper);
  REQUIRE(paper.experiments.size() == 2);
  CHECK(paper.experiments[0].trials == 3);  // kTinyExperiment's
  CHECK_THROWS_AS(dpb::verify::load_reproduction(tree.root, "demo", Scale::quick), dpb::ConfigError);  // b.quick
  CHECK_THAT(error_of([&] { dpb::verify::load_reproduction(tree.root, "demo/c", Scale::paper); }),
             Catch::Contains("paper demo has no figure 'c'") && Catch::Contains("known: a, b"));
}
