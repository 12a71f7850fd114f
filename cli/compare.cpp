// `dpbounds compare RESULTS_A RESULTS_B`: a regression gate between two runs (docs/compare.md); exit 1
// when B is significantly worse than A anywhere.
#include <nlohmann/json.hpp>
#include <fmt/core.h>

#include "cli/verb.hpp"
#include "verify/report/compare.hpp"

namespace dpb::cli::compare_verb {

struct Options {
  std::string a, b;
  std::vector<std::string> metrics, maps;
  std::string alpha = "0.05";
  bool json = false;
};

constexpr int kWorseExitCode = 1;

int compare(const Options& o) {
  const dpb::verify::CompareOptions options{o.metrics, dpb::cli::number(o.alpha, "--alpha"), o.maps};
  const auto comparison = dpb::verify::compare_runs(o.a, o.b, options);
  if (o.json)
    dpb::cli::print_json(dpb::verify::to_json(comparison));
  else
    fmt::print("{}", dpb::verify::to_text(comparison));
  return comparison.worse() ? kWorseExitCode : 0;
}

const bool registered = dpb::cli::register_verb({
    .name = "compare",
    .summary = "Compare two runs: significant changes of the errors and audits, exit 1 when B is worse",
    .help = "for every (cell, algorithm, metric) of A a Mann-Whitney test against B's errors, Holm-corrected;\n"
            "audited eps_lb and Gaussian-DP mu changes; exit 1 when B is significantly worse than A, or when\n"
            "something of A has no match in B (a CI gate that never passes on what it did not compare)",
    .examples = {"compare BASELINE_RESULTS/cai2024-gaussian-mechanism results/cai2024-gaussian-mechanism",
                 "compare BASELINE/results.sqlite CANDIDATE/results.sqlite --metric projector_op --alpha 0.01 --json"},
    .order = 28,
    .setup =
        [](CLI::App& sub) {
          auto o = std::make_shared<Options>();
          sub.add_option("results_a", o->a, "Baseline results directory (results/<name>/) or its results.sqlite")
              ->required();
          sub.add_option("results_b", o->b, "Candidate results directory or results.sqlite")->required();
          sub.add_option("--metric", o->metrics, "Metric to compare (repeatable; default: every shared metric)")
              ->allow_extra_args(false);
          sub.add_option("--map", o->maps,
                         "OLD=NEW: A's algorithm label OLD is B's NEW (repeatable; a changed argument changes a label)")
              ->allow_extra_args(false);
          sub.add_option("--alpha", o->alpha, "Family-wise significance level of the Holm procedure (default 0.05)");
          sub.add_flag("--json", o->json, "Machine-readable output");
          return [o] { return compare(*o); };
        },
});

}  // namespace dpb::cli::compare_verb
