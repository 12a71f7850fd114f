#pragma once
// Running `dpbounds reproduce` from the repository root, for the per-paper reproduction tests.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/run_cli.hpp"
#include "verify/experiment/tuned_by.hpp"
#include "verify/suite/reproduce.hpp"
#include "verify/runner/verdict_table.hpp"

namespace dpb::test {

// The repository root (where configs/papers lives): tests run from it or a build directory inside it.
inline std::filesystem::path repository_root() {
  for (auto dir = std::filesystem::current_path(); !dir.empty(); dir = dir.parent_path()) {
    if (std::filesystem::is_directory(dir / "configs" / "papers")) return dir;
    if (dir == dir.parent_path()) break;
  }
  return {};
}

// Runs `dpbounds reproduce args` from the repository root.
inline CliResult reproduce(const std::string& args) {
  const auto root = repository_root();
  REQUIRE(!root.empty());
  std::filesystem::current_path(root);
  return run_cli("reproduce " + args);
}

// The number of verdict lines ("PASS ", "FAIL ", "INCONCLUSIVE " at a line start) in a reproduce output.
inline long verdict_lines(const std::string& out) {
  long lines = 0;
  for (const char* status : {"\nPASS ", "\nFAIL ", "\nINCONCLUSIVE "})
    for (auto at = out.find(status); at != std::string::npos; at = out.find(status, at + 1)) ++lines;
  return lines;
}

// A tuned figure (`tuned_by`) as the reproduction ran it: with the candidate the log says its tuning selected.
inline void use_logged_selection(const std::string& out, const std::vector<verify::ExperimentSpec>& experiments,
                                 verify::ExperimentSpec& figure) {
  const std::string prefix = "\n" + figure.name + " runs ";
  const auto at = out.find(prefix);
  REQUIRE(at != std::string::npos);
  const auto start = at + prefix.size();
  const std::string label = out.substr(start, out.find(", the candidate " + figure.tuned_by + " selects", start) - start);
  for (const auto& tuning : experiments)
    if (tuning.name == figure.tuned_by)
      for (const auto& candidate : tuning.algorithms)
        if (candidate.label == label) return verify::use_selected_candidate(figure, candidate);
  FAIL("the log names no candidate of " << figure.tuned_by << " for " << figure.name);
}

// Runs every figure of `paper` at the quick scale (dataset figures on `data`, when given) and checks that
// each figure wrote its report, nothing was skipped, each check printed one verdict line under its own
// description, and the reproduction wrote its suite summary and theorem tables. Exit 0 or 1: at the quick
// scale (few trials, small grids) a claim may FAIL or be INCONCLUSIVE by noise or because the small-n
// regime differs from the paper's. Returns the reproduction's checks.
inline std::vector<verify::CheckSpec> reproduce_quick(const std::string& paper, const std::string& data = "") {
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() / ("dpb_reproduce_" + paper + "_" + std::to_string(::getpid()));
  const std::string extra = data.empty() ? "" : " --data '" + data + "'";
  const auto r = reproduce(paper + " --scale quick --threads 2 --out '" + out.string() + "'" + extra);
  INFO(r.out << r.err);
  CHECK((r.code == 0 || r.code == 1));
  CHECK_THAT(r.out, !Catch::Contains("skipped"));
  const fs::path papers = repository_root() / "configs" / "papers";
  const fs::path root = out / ("reproduce-" + paper + "-quick");
  for (const auto& figure : verify::paper_figures(papers, paper))
    CHECK(fs::exists(root / (paper + "-" + figure) / "summary.md"));
  const auto spec = verify::load_reproduction(papers, paper, verify::Scale::quick, data);
  std::vector<verify::CheckSpec> checks;
  for (auto e : spec.suite.experiments) {  // a figure may state no claim (dugler2026's tuning table)
    if (!e.tuned_by.empty()) use_logged_selection(r.out, spec.suite.experiments, e);
    for (const auto& c : e.checks) {
      CHECK_THAT(r.out, Catch::Contains(verify::describe_check(c) + "\n"));
      checks.push_back(c);
    }
  }
  CHECK(verdict_lines(r.out) == static_cast<long>(checks.size()));
  CHECK_THAT(r.out, Catch::Contains(std::to_string(checks.size()) + " claims and rates: "));
  CHECK(fs::exists(root / ("suite-reproduce-" + paper + "-quick") / "summary.md"));
  CHECK(fs::exists(root / "theorems" / "theorems.tex"));
  fs::remove_all(out);
  return checks;
}

}  // namespace dpb::test
