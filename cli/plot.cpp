// `dpbounds plot RESULTS`: the figures of a stored run into RESULTS/figures.
#include <fmt/core.h>

#include "cli/verb.hpp"
#include "verify/runner/stored_run.hpp"

namespace dpb::cli::plot_verb {

const bool registered = dpb::cli::register_verb({
    .name = "plot",
    .summary = "Write the figures of a stored run (PNG/SVG with gnuplot, pgfplots .tex)",
    .help = "PNG and SVG need gnuplot; RESULTS/summary.md is left as the run wrote it",
    .examples = {"plot results/cai2024-gaussian-mechanism"},
    .order = 27,
    .setup =
        [](CLI::App& sub) {
          auto results = std::make_shared<std::string>();
          sub.add_option("results", *results, "results/<name> or its results.sqlite")->required();
          return [results] {
            const auto figures = dpb::verify::stored_figures(dpb::verify::load_run(*results));
            if (figures.empty()) fmt::print("no figures: the experiment's report names none\n");
            for (const auto& file : figures) fmt::print("{}\n", file.string());
            return 0;
          };
        },
});

}  // namespace dpb::cli::plot_verb
