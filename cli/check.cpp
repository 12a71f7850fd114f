// `dpbounds check RESULTS`: redo the checks (and the report) of a stored run.
#include <iostream>

#include "cli/verb.hpp"
#include "verify/runner/run_and_report.hpp"
#include "verify/runner/stored_run.hpp"
#include "verify/runner/verdict_table.hpp"

namespace dpb::cli::check_verb {

const bool registered = dpb::cli::register_verb({
    .name = "check",
    .summary = "Redo the checks of a stored run and rewrite its report",
    .help = "RESULTS is results/<name> or its results.sqlite; exit 1 when a check FAILs",
    .examples = {"check results/cai2024-gaussian-mechanism"},
    .order = 25,
    .setup =
        [](CLI::App& sub) {
          auto results = std::make_shared<std::string>();
          sub.add_option("results", *results, "results/<name> or its results.sqlite")->required();
          return [results] {
            const auto run = dpb::verify::load_run(*results);
            const auto verdicts = dpb::verify::check_and_report(run.results, run.settings, run.dir);
            dpb::verify::print_verdicts(verdicts, std::cout);
            return dpb::verify::verdicts_exit_code(verdicts);
          };
        },
});

}  // namespace dpb::cli::check_verb
