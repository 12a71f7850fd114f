// `dpbounds reproduce KEY[/FIGURE]`: a paper's figures (configs/papers/KEY/*.yaml) at the quick or the
// paper's scale, each figure's claims as verdicts (docs/experiments.md "Reproductions").
#include <cstdio>
#include <fmt/core.h>
#include <iostream>

#include "cli/trial_run_flags.hpp"
#include "cli/verb.hpp"
#include "verify/experiment/config_dirs.hpp"
#include "verify/theorems/paper_theorems.hpp"
#include "verify/suite/reproduce.hpp"
#include "verify/runner/signals.hpp"
#include "verify/runner/verdict_table.hpp"

namespace dpb::cli::reproduce_verb {

struct Options {
  std::string target, scale = "quick", out = "results", data, configs;
  dpb::cli::TrialRunFlags trials;
};

int run(const Options& o) {
  const auto scale = dpb::verify::parse_scale(o.scale);
  const auto papers = dpb::verify::find_config_subdir("papers", dpb::verify::config_locations(o.configs));
  const auto [suite, skipped] = dpb::verify::load_reproduction(papers, o.target, scale, o.data);
  const auto root = std::filesystem::path(o.out) / suite.name;  // quick and paper runs never share a store
  fmt::print("dpbounds reproduce: {} at the {} scale ({} figures)\n", o.target, o.scale, suite.experiments.size());
  for (const auto& line : skipped) fmt::print("{}\n", line);
  std::cout.flush();
  const auto options = dpb::cli::run_options(o.trials);
  const auto result = dpb::verify::run_suite(suite, root, options, std::cout);
  if (result.interrupted) {
    fmt::print("{}\n", dpb::cli::kInterruptedMessage);
    return dpb::verify::kInterruptedExitCode;
  }
  const auto [all, code] = dpb::verify::collect_verdicts(result);
  const auto counts = dpb::verify::count_verdicts(all);
  fmt::print("\n{} claims and rates: {} PASS, {} FAIL, {} INCONCLUSIVE\n", all.size(), counts[0], counts[1], counts[2]);
  fmt::print("summary {}\n", (root / ("suite-" + suite.name) / "summary.md").string());
  const std::string key = o.target.substr(0, o.target.find('/'));
  if (const auto files = dpb::verify::write_paper_theorems(key, root / "theorems"); !files.empty())
    fmt::print("theorems {} (rates, Tables, explicit lower bounds, gaps)\n", files.front().parent_path().string());
  return code;
}

const bool registered = dpb::cli::register_verb({
    .name = "reproduce",
    .summary = "Reproduce a paper's figures and check its claims",
    .help = "runs configs/papers/<key>/<figure>.yaml (every figure, or one), prints each claim's verdict\n"
            "and writes OUT/reproduce-<key>-<scale>/ (with theorems/: the paper's theorem tables);\n"
            "exit 1 when a claim FAILs. A figure on a dataset (cai2024/mnist) reads --data DIR",
    .examples = {"reproduce cai2024", "reproduce cai2024/fig1-left --scale paper --threads 8",
                 "reproduce cai2024/mnist --data MNIST_DIR --scale paper"},
    .order = 16,
    .spreads_over_ranks = true,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.add_option("target", o->target, "<key> or <key>/<figure>, e.g. cai2024/fig5")->required();
          sub.add_option("--scale", o->scale, "quick (seconds) | paper (the paper's grids and trials; default quick)");
          dpb::cli::add_trial_run_flags(sub, o->trials);
          sub.add_option("--out", o->out, "Results root (default results/)");
          sub.add_option("--configs", o->configs,
                         "Configs directory holding papers/ (default: $DPBOUNDS_CONFIGS, else ./configs, else the "
                         "one beside the executable or installed with it)");
          sub.add_option("--data", o->data, "Directory of a dataset figure's files (MNIST IDX), instead of its data.path");
          return [o] { return run(*o); };
        },
});

}  // namespace dpb::cli::reproduce_verb
